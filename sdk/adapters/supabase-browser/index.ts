/** Browser adapter for Supabase Auth: the signed-in user's access token as an AccessTokenSource (adapters/fetch). */
export { supabaseAccessTokenSource } from "./supabase-access-token-source.ts";
