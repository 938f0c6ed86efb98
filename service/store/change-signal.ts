/**
 * Tells waiters that rows of some kind changed in this process, so that a long poll answers at once
 * instead of on its next turn. Changes made by another process sharing PostgreSQL are not seen:
 * waiters then wake at their deadline, as if they had polled.
 */
export interface ChangeSignal {
  /** Bumped by every change; pass it to `after` to hear of changes made since it was read. */
  readonly version: number;
  notify(): void;
  /** Resolves once the version is past `version`, after `ms`, or when `signal` aborts, whichever is first. */
  after(version: number, ms: number, signal?: AbortSignal): Promise<void>;
}

export function createChangeSignal(): ChangeSignal {
  let version = 0;
  const waiters = new Set<() => void>();
  return {
    get version() {
      return version;
    },
    notify() {
      version++;
      for (const wake of waiters) wake();
    },
    after(seen, ms, signal) {
      if (version > seen || signal?.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          signal?.removeEventListener("abort", done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        waiters.add(done);
        signal?.addEventListener("abort", done, { once: true });
      });
    },
  };
}
