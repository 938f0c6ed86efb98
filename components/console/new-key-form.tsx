"use client";
/** The form that makes a key: an optional name and the scopes ask and/or rag, both ticked at first. */
import type { FormEvent } from "react";
import type { Scope } from "@/sdk/core/wire.ts";
import type { NewKey } from "./use-key-actions";

const scopes = ["ask", "rag"] as const satisfies readonly Scope[];

const scopeHelp: Record<Scope, string> = {
  ask: "ask: cited answers (the chat)",
  rag: "rag: ranked passages (search)",
};

export function NewKeyForm({ busy, onCreate }: { busy: boolean; onCreate(key: NewKey): Promise<boolean> }) {
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const made = await onCreate({
      name: String(form.get("name") ?? "").trim(),
      scopes: scopes.filter((scope) => form.get(scope) === "on"),
    });
    if (made) formElement.reset();
  }

  return (
    <form
      onSubmit={submit}
      data-testid="create-key"
      className="flex flex-col gap-3 rounded-xl border border-stone-300 bg-white p-4 dark:border-stone-700 dark:bg-stone-900"
    >
      <h2 className="text-lg font-semibold">New key</h2>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Name (optional: where the key will be used)
        <input
          name="name"
          maxLength={200}
          placeholder="e.g. intranet app"
          className="rounded-lg border border-stone-400 bg-white px-3 py-2 text-base font-normal dark:border-stone-600 dark:bg-stone-950"
        />
      </label>
      <fieldset className="flex flex-col gap-1 text-sm">
        <legend className="mb-1 font-medium">Scopes</legend>
        {scopes.map((scope) => (
          <label key={scope} className="flex items-center gap-2">
            <input type="checkbox" name={scope} defaultChecked className="size-4" />
            {scopeHelp[scope]}
          </label>
        ))}
      </fieldset>
      <button
        type="submit"
        disabled={busy}
        className="self-start rounded-lg bg-blue-700 px-4 py-2 font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
      >
        Create key
      </button>
    </form>
  );
}
