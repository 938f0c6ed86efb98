/** Shown while a conversation or a search renders on the server. */
export default function Loading() {
  return (
    <div
      role="status"
      className="flex h-full items-center justify-center gap-2 text-stone-600 dark:text-stone-400"
    >
      <span
        className="size-4 animate-spin rounded-full border-2 border-stone-300 border-t-blue-700"
        aria-hidden="true"
      />
      Loading…
    </div>
  );
}
