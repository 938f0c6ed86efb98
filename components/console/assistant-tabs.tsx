"use client";
/** The sections of one assistant, the current one marked for screen readers and the eye. */
import Link from "next/link";
import { usePathname } from "next/navigation";

export function AssistantTabs({ assistantId }: { assistantId: string }) {
  const pathname = usePathname();
  const base = `/console/assistants/${assistantId}`;
  const tabs = [
    { href: base, label: "Sources" },
    { href: `${base}/keys`, label: "Keys" },
    { href: `${base}/share`, label: "Share" },
    { href: `${base}/try`, label: "Try" },
  ];
  return (
    <nav aria-label="Assistant" className="flex gap-1 border-b border-stone-300 dark:border-stone-700">
      {tabs.map((tab) => {
        const current = tab.href === base ? pathname === base : pathname.startsWith(tab.href);
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={current ? "page" : undefined}
            className={`-mb-px rounded-t-lg border px-4 py-2 text-sm font-medium ${
              current
                ? "border-stone-300 border-b-stone-50 bg-stone-50 dark:border-stone-700 dark:border-b-stone-950 dark:bg-stone-950"
                : "border-transparent text-stone-700 hover:text-blue-800 dark:text-stone-300 dark:hover:text-blue-300"
            }`}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
