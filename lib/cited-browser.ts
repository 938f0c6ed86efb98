/**
 * The browser's client of the app's own route; the service and its key stay on the server.
 * Embedded mode: the session cookie goes along by itself. Supabase mode: each call carries the
 * Supabase session's access token as a bearer header, refreshed once when it has expired.
 */
import { createAuthenticatedFetch } from "@/sdk/adapters/fetch/index.ts";
import { supabaseAccessTokenSource } from "@/sdk/adapters/supabase-browser/index.ts";
import { createServiceBrowserClient, type ServiceBrowserClient } from "@/sdk/browser/index.ts";
import { createSupabaseBrowserClient } from "./supabase/client.ts";
import type { SupabaseProject } from "./supabase/project.ts";

/** The app's route for its users' chat and search. */
export const citedEndpoint = "/api/cited";

/**
 * `supabase`: the project the server named (props, not build-time env), or null in embedded mode.
 * `endpoint`: the route the client calls (the console's Try tab has its own).
 */
export function createCitedBrowser(
  supabase: SupabaseProject | null,
  endpoint: string = citedEndpoint,
): ServiceBrowserClient {
  if (supabase === null) return createServiceBrowserClient({ endpoint });
  // Server renders of the signed-in pages make this client too but never call it, and only a page
  // has the location the endpoint resolves against and the session's cookies: the Supabase part
  // (its client, its token renewal) is made in the browser alone.
  if (typeof window === "undefined") return createServiceBrowserClient({ endpoint });
  const source = supabaseAccessTokenSource(createSupabaseBrowserClient(supabase));
  const fetch = createAuthenticatedFetch(source, { endpoint });
  return createServiceBrowserClient({ endpoint, fetch });
}
