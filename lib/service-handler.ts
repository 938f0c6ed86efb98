/** The SDK's route handler, configured from the server env: the only way the browser reaches the service. */
import "server-only";
import {
  bearerToken,
  createSupabaseServiceStore,
  createSupabaseUserClient,
} from "@/sdk/adapters/supabase/index.ts";
import { createServiceHandler, type ServiceHandler, type ServiceHandlerConfig } from "@/sdk/server/index.ts";
import { createAuthenticate } from "./auth.ts";
import { type AuthMode, allowedOrigins, serverEnvironment } from "./env.ts";
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
    store: storeFor(environment.auth),
    authenticate: createAuthenticate(environment.auth),
  });
  return handler;
}

/**
 * Embedded: one PGlite store for every request. Supabase: a store per request that calls the
 * project's Postgres with the request's own access token, so row-level security decides what it
 * reads and writes; the service-role key is never used for users' data.
 */
function storeFor(auth: AuthMode): ServiceHandlerConfig["store"] {
  if (auth.kind === "embedded") return lazyAppStore;
  return ({ request, user }) => {
    // `authenticate` has just accepted this very token, so it is there.
    const accessToken = bearerToken(request);
    if (accessToken === null) throw new Error("a request reached the store without its bearer token");
    return createSupabaseServiceStore({
      client: createSupabaseUserClient({
        supabaseUrl: auth.url,
        supabaseKey: auth.publishableKey,
        accessToken,
      }),
      userId: user.id,
    });
  };
}
