/** A ServiceClient for server components (the search page); the route handler has its own. */
import "server-only";
import { createServiceClient, type ServiceClient } from "@/sdk/server/index.ts";
import { serverEnvironment } from "./env.ts";

let client: ServiceClient | undefined;

export function serviceClient(): ServiceClient {
  if (client) return client;
  const environment = serverEnvironment();
  client = createServiceClient({
    baseUrl: environment.CITED_BASE_URL,
    assistantId: environment.CITED_ASSISTANT_ID,
    apiKey: environment.CITED_API_KEY,
  });
  return client;
}
