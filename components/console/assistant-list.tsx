"use client";
/** The service's assistants: create one, open its sources, rename it, delete it after saying what is lost. */
import Link from "next/link";
import { type FormEvent, useState } from "react";
import type { Assistant } from "@/sdk/admin/schemas.ts";
import { ConfirmDialog } from "./confirm-dialog";
import { consoleApi } from "./console-api";
import { ConsoleErrorBanner } from "./error-banner";
import { formatTime } from "./format";
import { useConsoleAction } from "./use-console-action";

export interface AssistantListProps {
  assistants: Assistant[];
  /** The assistant this app's chat asks (CITED_ASSISTANT_ID): deleting it stops the chat. */
  chatAssistantId: string;
}

export function AssistantList({ assistants, chatAssistantId }: AssistantListProps) {
  const { busy, error, setError, run } = useConsoleAction();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Assistant | null>(null);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get("name") ?? "").trim();
    if (name === "") return;
    if (await run(() => consoleApi.createAssistant(name))) form.reset();
  }

  async function rename(assistant: Assistant, name: string) {
    setRenaming(null);
    if (name.trim() === "" || name.trim() === assistant.name) return;
    await run(() => consoleApi.renameAssistant(assistant.id, name.trim()));
  }

  async function remove(assistant: Assistant) {
    setDeleting(null);
    await run(() => consoleApi.deleteAssistant(assistant.id));
  }

  return (
    <div className="flex flex-col gap-4">
      <form
        onSubmit={create}
        data-testid="create-assistant"
        className="flex flex-col gap-2 rounded-xl border border-stone-300 bg-white p-4 sm:flex-row sm:items-end dark:border-stone-700 dark:bg-stone-900"
      >
        <label className="flex flex-1 flex-col gap-1 text-sm font-medium">
          New assistant
          <input
            name="name"
            required
            maxLength={200}
            placeholder="e.g. Support manuals"
            className="rounded-lg border border-stone-400 bg-white px-3 py-2 text-base font-normal dark:border-stone-600 dark:bg-stone-950"
          />
        </label>
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-blue-700 px-4 py-2 font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
        >
          Create assistant
        </button>
      </form>
      {error ? <ConsoleErrorBanner error={error} onDismiss={() => setError(null)} /> : null}
      {assistants.length === 0 ? (
        <div
          data-testid="assistants-empty"
          className="rounded-xl border border-dashed border-stone-400 p-8 text-center text-stone-700 dark:border-stone-600 dark:text-stone-300"
        >
          <p className="font-medium">No assistants yet.</p>
          <p className="mt-1 text-sm">Create one above, then drop the documents it should answer from.</p>
        </div>
      ) : (
        <ul data-testid="assistant-list" className="flex flex-col gap-2">
          {assistants.map((assistant) => (
            <li
              key={assistant.id}
              data-testid="assistant-row"
              data-assistant-id={assistant.id}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl border border-stone-300 bg-white p-3 dark:border-stone-700 dark:bg-stone-900"
            >
              <div className="flex min-w-0 flex-1 flex-col">
                {renaming === assistant.id ? (
                  <input
                    aria-label="Assistant name"
                    defaultValue={assistant.name}
                    maxLength={200}
                    // biome-ignore lint/a11y/noAutofocus: the operator just asked to type a new name here.
                    autoFocus
                    onBlur={(event) => rename(assistant, event.currentTarget.value)}
                    onKeyDown={(event) => {
                      if (event.key === "Enter") rename(assistant, event.currentTarget.value);
                      if (event.key === "Escape") setRenaming(null);
                    }}
                    className="rounded border border-blue-700 bg-white px-2 py-1 dark:bg-stone-950"
                  />
                ) : (
                  <Link
                    href={`/console/assistants/${assistant.id}`}
                    className="truncate font-semibold text-blue-800 underline-offset-2 hover:underline dark:text-blue-300"
                  >
                    {assistant.name}
                  </Link>
                )}
                <span className="flex flex-wrap gap-x-3 text-xs text-stone-600 dark:text-stone-400">
                  <code>{assistant.id}</code>
                  <span>created {formatTime(assistant.created_at)}</span>
                  {assistant.id === chatAssistantId ? (
                    <span className="font-medium text-emerald-800 dark:text-emerald-300">
                      used by this app's chat
                    </span>
                  ) : null}
                </span>
              </div>
              <div className="flex gap-2">
                <button
                  type="button"
                  onClick={() => setRenaming(assistant.id)}
                  aria-label={`Rename ${assistant.name}`}
                  className="rounded-lg border border-stone-400 px-3 py-1 text-sm dark:border-stone-600"
                >
                  Rename
                </button>
                <button
                  type="button"
                  onClick={() => setDeleting(assistant)}
                  aria-label={`Delete ${assistant.name}`}
                  className="rounded-lg border border-red-700 px-3 py-1 text-sm text-red-800 dark:border-red-400 dark:text-red-300"
                >
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.name ?? ""}”?`}
        confirmLabel="Delete assistant"
        onConfirm={() => deleting && remove(deleting)}
        onCancel={() => setDeleting(null)}
      >
        <p>
          Its documents, their passages and search index, its datasources and every API key it has are deleted
          for good. Apps that use its keys get 401 from their next request.
        </p>
        {deleting?.id === chatAssistantId ? (
          <p className="font-semibold text-red-800 dark:text-red-300">
            This app's chat asks this assistant: it stops answering until CITED_ASSISTANT_ID names another.
          </p>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}
