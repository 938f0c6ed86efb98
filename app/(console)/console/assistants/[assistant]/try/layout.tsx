import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { CitedBrowserProvider } from "@/components/cited-browser-provider";
import { TrySections } from "@/components/console/try-sections";
import { trialKeyLifetimeSeconds, trialMountPath } from "@/lib/console/trial";
import { browserSupabaseProject, serverEnvironment } from "@/lib/env";
import { assistantIdSchema } from "@/sdk/core/wire.ts";

/** The Try tab: what it is, then its chat or its search, both calling the Try tab's route. */
export default async function TryLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ assistant: string }>;
}) {
  const assistant = assistantIdSchema.safeParse((await params).assistant);
  if (!assistant.success) notFound();
  return (
    <section aria-labelledby="try-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-x-6 gap-y-2">
        <div className="flex max-w-2xl flex-col gap-1">
          <h2 id="try-heading" className="text-lg font-semibold">
            Try it as your users will
          </h2>
          <p className="text-sm text-stone-700 dark:text-stone-300">
            Test conversations: only you see them, apart from your users&apos; chats. They reach this
            assistant through a key that the service makes for them and ends after{" "}
            {trialKeyLifetimeSeconds / 60} minutes.
          </p>
        </div>
        <TrySections assistantId={assistant.data} />
      </div>
      <CitedBrowserProvider
        supabase={browserSupabaseProject(serverEnvironment().auth)}
        endpoint={trialMountPath(assistant.data)}
      >
        {children}
      </CitedBrowserProvider>
    </section>
  );
}
