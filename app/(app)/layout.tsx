import { redirect } from "next/navigation";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { AppHeader } from "@/components/app-header";
import { CitedBrowserProvider } from "@/components/cited-browser-provider";
import { NewChatProvider } from "@/components/new-chat-link";
import { authScopeOf, currentUser } from "@/lib/auth";
import { consoleOperator } from "@/lib/console/operator";
import { browserSupabaseProject, serverEnvironment, settingsProblem } from "@/lib/env";

/**
 * Every page behind sign-in: the header, then the page. The route handler checks the user again.
 * In Supabase mode the browser learns the project's URL and publishable key here (never the JWT secret).
 */
export default async function SignedInLayout({ children }: { children: ReactNode }) {
  await connection();
  if (settingsProblem()) redirect("/");
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  return (
    <CitedBrowserProvider supabase={browserSupabaseProject(serverEnvironment().auth)}>
      <NewChatProvider>
        <div className="flex h-dvh flex-col">
          <a
            href="#main-content"
            className="sr-only z-50 rounded-lg bg-white px-3 py-2 font-medium text-blue-800 shadow focus:not-sr-only focus:absolute focus:top-2 focus:left-2 dark:bg-stone-900 dark:text-blue-300"
          >
            Skip to the main content
          </a>
          <AppHeader
            userName={user.name}
            authScope={authScopeOf(user)}
            consoleLink={(await consoleOperator()) !== null}
          />
          <div className="min-h-0 flex-1">{children}</div>
        </div>
      </NewChatProvider>
    </CitedBrowserProvider>
  );
}
