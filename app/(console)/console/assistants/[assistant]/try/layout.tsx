import type { ReactNode } from "react";
import { TrySections } from "@/components/console/try-sections";
import { trialKeyLifetimeSeconds } from "@/lib/console/trial";

/** The Try tab: what it is, then its chat or its search. */
export default async function TryLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ assistant: string }>;
}) {
  const { assistant } = await params;
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
        <TrySections assistantId={assistant} />
      </div>
      {children}
    </section>
  );
}
