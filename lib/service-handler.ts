/** The SDK's route handler, configured from the server env: the only way the browser reaches the service. */
import "server-only";
import { createServiceHandler, type ServiceHandler } from "@/sdk/server/index.ts";
import { authenticate } from "./auth.ts";
import { allowedOrigins, serverEnvironment } from "./env.ts";
import { lazyAppStore } from "./store.ts";

export const citedMountPath = "/api/cited";

let handler: ServiceHandler | undefined;

export function serviceHandler(): ServiceHandler {
  if (handler) return handler;
  const environment = serverEnvironment();
  handler = createServiceHandler({
    baseUrl: environment.CITED_BASE_URL,
    assistantId: environment.CITED_ASSISTANT_ID,
    apiKey: environment.CITED_API_KEY,
    allowedOrigin: allowedOrigins(environment),
    mountPath: citedMountPath,
    store: lazyAppStore,
    authenticate,
  });
  return handler;
}
