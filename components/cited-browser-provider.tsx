"use client";
/**
 * Gives the signed-in pages' client components the browser client of the app's route, made for the
 * mode the server runs in (the layout passes the Supabase project down, or null).
 */
import { createContext, type ReactNode, use, useMemo } from "react";
import { createCitedBrowser } from "@/lib/cited-browser";
import type { SupabaseProject } from "@/lib/supabase/project";
import type { ServiceBrowserClient } from "@/sdk/browser/index.ts";

const CitedBrowserContext = createContext<ServiceBrowserClient | null>(null);

export function CitedBrowserProvider({
  supabase,
  children,
}: {
  supabase: SupabaseProject | null;
  children: ReactNode;
}) {
  const url = supabase?.url;
  const publishableKey = supabase?.publishableKey;
  const cited = useMemo(
    () =>
      createCitedBrowser(url === undefined || publishableKey === undefined ? null : { url, publishableKey }),
    [url, publishableKey],
  );
  return <CitedBrowserContext value={cited}>{children}</CitedBrowserContext>;
}

/** The browser client of the app's route; only inside the signed-in pages. */
export function useCited(): ServiceBrowserClient {
  const cited = use(CitedBrowserContext);
  if (cited === null) throw new Error("useCited() is used outside the signed-in pages' CitedBrowserProvider");
  return cited;
}
