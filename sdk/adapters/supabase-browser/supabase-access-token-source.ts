/** The access token of a supabase-js client's session, as an AccessTokenSource for createAuthenticatedFetch. */
import {
  type AuthError,
  isAuthApiError,
  isAuthSessionMissingError,
  type Session,
  type SupabaseClient,
} from "@supabase/supabase-js";
import type { AccessTokenSource } from "../fetch/create-authenticated-fetch.ts";

/**
 * GoTrue refusing the session (4xx: signed out, refresh token used or revoked) means "no token"; the
 * host's 401 then reaches the app, which asks the user to sign in. Not reaching GoTrue is an error:
 * the user is not signed out because the network dropped.
 */
function tokenOf(result: { data: { session: Session | null }; error: AuthError | null }): string | null {
  if (result.error === null) return result.data.session?.access_token ?? null;
  if (isAuthApiError(result.error) || isAuthSessionMissingError(result.error)) return null;
  throw result.error;
}

/**
 * `getSession()` gives the current token (supabase-js renews it first when it is about to expire);
 * `refreshSession()` renews it when the host refused it anyway (e.g. the device clock is behind).
 *
 * @example
 * createAuthenticatedFetch(supabaseAccessTokenSource(createBrowserClient(url, publishableKey)))
 */
export function supabaseAccessTokenSource(client: Pick<SupabaseClient, "auth">): AccessTokenSource {
  return {
    getAccessToken: async () => tokenOf(await client.auth.getSession()),
    refreshAccessToken: async () => tokenOf(await client.auth.refreshSession()),
  };
}
