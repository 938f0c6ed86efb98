/** What the sources page says when its live updates stop: paused by a failure, or ended with the assistant. */
import type { ConsoleError } from "./error-banner";

export function WatchNotices({ problem, gone }: { problem: ConsoleError | null; gone: boolean }) {
  return (
    <>
      {gone ? (
        <p role="alert" data-testid="assistant-gone" className="text-sm text-red-900 dark:text-red-200">
          This assistant no longer exists: it was deleted, perhaps in another tab. Its sources are gone too.
        </p>
      ) : null}
      {problem ? (
        <p role="status" data-testid="watch-problem" className="text-sm text-amber-900 dark:text-amber-200">
          Live updates paused: {problem.message} Trying again…
          {problem.requestId ? (
            <span className="font-mono text-xs"> (request id {problem.requestId})</span>
          ) : null}
        </p>
      ) : null}
    </>
  );
}
