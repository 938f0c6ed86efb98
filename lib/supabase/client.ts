/**
 * The browser's Supabase client, made from the URL and publishable key the server passed down as
 * props (not NEXT_PUBLIC_ env: one build serves every project). Its session lives in cookies, so
 * server renders see the same sign-in.
 */
import { createBrowserClient } from "@supabase/ssr";
import type { SupabaseClient } from "@supabase/supabase-js";
import { type SupabaseProject, supabaseCookieOptions } from "./project.ts";

export function createSupabaseBrowserClient(project: SupabaseProject): SupabaseClient {
  return createBrowserClient(project.url, project.publishableKey, {
    cookieOptions: supabaseCookieOptions(project),
  });
}
