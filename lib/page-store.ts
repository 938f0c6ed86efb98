/**
 * The store a server page reads the signed-in user's conversations from. Supabase mode: the
 * project's Postgres as that user (the session in the request's cookies), so row-level security
 * applies to pages as it does to the route handler. Embedded mode: the app's PGlite store.
 */
import "server-only";
import { createSupabaseServiceStore } from "@/sdk/adapters/supabase/index.ts";
import type { ServiceStore } from "@/sdk/server/index.ts";
import type { AppUser } from "./auth.ts";
import { supabaseProject } from "./env.ts";
import { appStore } from "./store.ts";
import { createSupabaseServerClient } from "./supabase/server.ts";

export async function pageStore(user: AppUser): Promise<ServiceStore> {
  const project = supabaseProject();
  if (project === null) return appStore();
  return createSupabaseServiceStore({ client: await createSupabaseServerClient(project), userId: user.id });
}
