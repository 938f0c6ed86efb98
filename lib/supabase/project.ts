/**
 * What a browser or server needs to reach a Supabase project: its URL and its publishable key, and
 * whether the session cookies must be `Secure` (the app is served over https).
 */
export interface SupabaseProject {
  url: string;
  publishableKey: string;
  secureCookies: boolean;
}

/** True when the app is served over https; a malformed origin is not (the settings page says why). */
export function servedOverHttps(appOrigin: string): boolean {
  return URL.parse(appOrigin)?.protocol === "https:";
}

/** The cookie options every Supabase client of the app is made with. */
export function supabaseCookieOptions(project: SupabaseProject): { secure: boolean } {
  return { secure: project.secureCookies };
}
