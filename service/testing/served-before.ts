/**
 * Whether a callback queued now for the next turn of the event loop (as an incoming request's handling is)
 * runs before `work` settles: false when `work` holds the event loop until it ends.
 */
export function servedBefore(work: Promise<unknown>): Promise<boolean> {
  let settled = false;
  const mark = () => {
    settled = true;
  };
  work.then(mark, mark);
  return new Promise((resolve) => setImmediate(() => resolve(!settled)));
}
