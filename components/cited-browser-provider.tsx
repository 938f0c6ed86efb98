"use client";
/**
 * Gives the signed-in pages' client components the browser client of the app's route, made for the
 * mode the server runs in (the layout passes the Supabase project down, or null).
 */
import { createContext, type ReactNode, use, useState } from "react";
import { createCitedBrowser } from "@/lib/cited-browser";
import type { SupabaseProject } from "@/lib/supabase/project";
import type { ServiceBrowserClient } from "@/sdk/browser/index.ts";

const CitedBrowserContext = createContext<ServiceBrowserClient | null>(null);

export function CitedBrowserProvider({
  supabase,
  endpoint,
  children,
}: {
  supabase: SupabaseProject | null;
  /** The route to call; default the app's own. */
  endpoint?: string;
  children: ReactNode;
}) {
  // Made once per page load: the project cannot change while the server runs, and a second client
  // would keep its own session and refresh timer beside the first.
  const [cited] = useState(() => createCitedBrowser(supabase, endpoint));
  return <CitedBrowserContext value={cited}>{children}</CitedBrowserContext>;
}

/** The browser client of the app's route (or the Try tab's); only inside the signed-in pages. */
export function useCited(): ServiceBrowserClient {
  const cited = use(CitedBrowserContext);
  if (cited === null) throw new Error("useCited() is used outside the signed-in pages' CitedBrowserProvider");
  return cited;
}
