/**
 * Background work done a step at a time: the returned function runs `step` until it reports nothing left
 * (false) or `ms` milliseconds have passed, and says whether work remains. A step that throws ends the work
 * for good: the slicer's background work (reading ahead, preparing pages) stops at a damaged object, which a
 * slice reaching it reports on its own.
 */
export function inSteps(step: () => boolean): (ms: number) => boolean {
  let done = false;
  return (ms) => {
    const until = performance.now() + ms;
    while (!done) {
      if (performance.now() >= until) return true;
      try {
        done = !step();
      } catch {
        done = true;
      }
    }
    return false;
  };
}
