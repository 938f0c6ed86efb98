"use client";
/** The Try tab's two parts, the current one marked for screen readers and the eye. */
import Link from "next/link";
import { usePathname } from "next/navigation";

export function TrySections({ assistantId }: { assistantId: string }) {
  const pathname = usePathname();
  const chat = `/console/assistants/${assistantId}/try`;
  const search = `${chat}/search`;
  const sections = [
    { href: chat, label: "Chat", current: pathname !== search },
    { href: search, label: "Search", current: pathname === search },
  ];
  return (
    <nav aria-label="Try" className="flex rounded-lg border border-stone-300 p-0.5 dark:border-stone-700">
      {sections.map((section) => (
        <Link
          key={section.href}
          href={section.href}
          aria-current={section.current ? "page" : undefined}
          className={`rounded-md px-3 py-1 text-sm font-medium ${
            section.current
              ? "bg-stone-200 text-stone-900 dark:bg-stone-800 dark:text-stone-100"
              : "text-stone-700 hover:text-blue-800 dark:text-stone-300 dark:hover:text-blue-300"
          }`}
        >
          {section.label}
        </Link>
      ))}
    </nav>
  );
}
