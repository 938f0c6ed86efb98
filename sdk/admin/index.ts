/** sdk/admin: the client of the service's sharing area, for servers that hold the admin token. */
export {
  type AdminClient,
  type AdminClientOptions,
  createAdminClient,
  type DocumentsWatch,
} from "./admin-client.ts";
export * as wire from "./schemas.ts";
