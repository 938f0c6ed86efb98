"use client";
/** Copies a text to the clipboard and says so; where the browser refuses, it says to copy by hand. */
import { useState } from "react";

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "refused">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch (error) {
      // No clipboard outside a secure context, or permission denied: the text stays selectable.
      console.warn("clipboard refused", error);
      setState("refused");
    }
  }
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={copy}
        aria-label={label}
        className="rounded-lg border border-stone-400 bg-white px-3 py-1 text-sm font-medium hover:border-blue-700 dark:border-stone-600 dark:bg-stone-950"
      >
        {state === "copied" ? "Copied" : "Copy"}
      </button>
      <span role="status" className="text-xs text-stone-600 dark:text-stone-400">
        {state === "refused" ? "The browser refused; select the text and copy it." : ""}
      </span>
    </span>
  );
}
