/** What a browser or server needs to reach a Supabase project: its URL and its publishable key. */
export interface SupabaseProject {
  url: string;
  publishableKey: string;
}
