/** The console's client of the service's sharing area (sdk/admin), made from the server's settings. */
import "server-only";
import { type AdminClient, createAdminClient } from "@/sdk/admin/index.ts";
import { consoleSettings } from "./env.ts";

export type ConsoleAdminClient = AdminClient;

let client: ConsoleAdminClient | undefined;

/** The admin client of this process; only called after the operator check, which needs the settings. */
export function consoleAdminClient(): ConsoleAdminClient {
  if (client) return client;
  const settings = consoleSettings();
  if (settings === null) throw new Error("The console has no settings (CITED_ADMIN_URL, CITED_ADMIN_TOKEN).");
  client = createAdminClient({ baseUrl: settings.adminUrl, adminToken: settings.adminToken });
  return client;
}
