/** Shown while a console page reads from the service's sharing area. */
export default function Loading() {
  return (
    <div role="status" className="flex items-center gap-2 py-8 text-stone-600 dark:text-stone-400">
      <span
        className="size-4 animate-spin rounded-full border-2 border-stone-300 border-t-blue-700"
        aria-hidden="true"
      />
      Loading…
    </div>
  );
}
