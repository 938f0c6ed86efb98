/**
 * OCR scratch of killed workers and processes is removed in the background while the pool works; a failure
 * to remove it is reported when the pool closes and must not become an unhandled rejection until then.
 */
export interface ScratchCleanups {
  track(cleanup: Promise<void>): void;
  /** Waits for every removal tracked so far and throws the first failure. */
  settled(): Promise<void>;
}

export function createScratchCleanups(): ScratchCleanups {
  const cleanups: Promise<void>[] = [];
  let cleanupError: unknown = null;
  return {
    track(cleanup) {
      cleanups.push(
        cleanup.catch((error: unknown) => {
          cleanupError ??= error;
        }),
      );
    },
    async settled() {
      await Promise.all(cleanups);
      if (cleanupError !== null) throw cleanupError;
    },
  };
}
