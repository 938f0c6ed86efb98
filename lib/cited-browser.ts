/** The browser's client of the app's own route; the service and its key stay on the server. */
import { createServiceBrowserClient } from "@/sdk/browser/index.ts";

export const cited = createServiceBrowserClient({ endpoint: "/api/cited" });
