/** Supabase adapters for the server SDK: authenticate users by their Supabase access token. */
export {
  bearerToken,
  createSupabaseAuthenticate,
  type SupabaseAccessTokenClaims,
  type SupabaseAuthenticateOptions,
  verifySupabaseAccessToken,
} from "./supabase-authenticate.ts";
