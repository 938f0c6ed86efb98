/** Per-key rate limiting: a fixed one-minute window, with the RateLimit headers a client needs to back off. */

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

export function createRateLimiter(limitPerMinute: number, now: () => number = Date.now) {
  const windows = new Map<string, { start: number; used: number }>();
  const windowMs = 60_000;

  return {
    take(key: string): RateDecision {
      const time = now();
      let window = windows.get(key);
      if (!window || time - window.start >= windowMs) {
        window = { start: time, used: 0 };
        windows.set(key, window);
        // Old windows of idle keys are dropped on the way, so the map never outgrows the active keys.
        if (windows.size > 10_000) {
          for (const [other, value] of windows) if (time - value.start >= windowMs) windows.delete(other);
        }
      }
      const reset = Math.max(1, Math.ceil((window.start + windowMs - time) / 1000));
      const allowed = window.used < limitPerMinute;
      if (allowed) window.used += 1;
      const headers: Record<string, string> = {
        "RateLimit-Limit": String(limitPerMinute),
        "RateLimit-Remaining": String(Math.max(0, limitPerMinute - window.used)),
        "RateLimit-Reset": String(reset),
      };
      if (!allowed) headers["Retry-After"] = String(reset);
      return { allowed, headers };
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
