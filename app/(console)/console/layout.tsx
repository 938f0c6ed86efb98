import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { AppHeader } from "@/components/app-header";
import { ConsoleBanner } from "@/components/console/console-banner";
import { authScopeOf } from "@/lib/auth";
import { requireOperator } from "@/lib/console/operator";
import { settingsProblem } from "@/lib/env";

export const metadata: Metadata = { title: "Console · Cited" };

/**
 * The operator's console: the app's header, a banner that says whose area this is, then the page.
 * Anyone but an operator gets a 404 here, and again in each page and route handler.
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  await connection();
  if (settingsProblem()) redirect("/");
  const operator = await requireOperator();
  return (
    <div className="flex min-h-dvh flex-col">
      <AppHeader userName={operator.name} authScope={authScopeOf(operator)} consoleLink />
      <ConsoleBanner everyoneInDevelopment={operator.everyoneInDevelopment} />
      <main className="mx-auto flex w-full max-w-5xl flex-1 flex-col gap-6 px-3 py-6 sm:px-6">
        {children}
      </main>
    </div>
  );
}
