/**
 * Supabase adapters for the server SDK: authenticate users by their Supabase access token, and keep
 * the ServiceStore in the project's Postgres as the signed-in user, so row-level security applies.
 */
export {
  bearerToken,
  createSupabaseAccessTokenVerifier,
  createSupabaseAuthenticate,
  type SupabaseAccessTokenClaims,
  type SupabaseAccessTokenOptions,
  type SupabaseAuthenticateOptions,
  SupabaseKeysUnavailableError,
} from "./supabase-authenticate.ts";
export {
  createSupabaseServiceStore,
  createSupabaseUserClient,
  type SupabaseServiceStoreOptions,
  SupabaseStoreError,
  type SupabaseUserClientOptions,
} from "./supabase-service-store.ts";
