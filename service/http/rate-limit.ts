/**
 * Per-key rate limiting: a fixed one-minute window, with the RateLimit headers a client needs to back off.
 * One process counts in memory; processes sharing PostgreSQL count in it, against one limit.
 */
import type { RateWindowStore } from "../store/rate-windows.ts";

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

export interface RateLimiter {
  take(key: string): Promise<RateDecision>;
}

const windowMs = 60_000;

/** `used` counts this request; it is allowed while that stays within the limit. */
function decide(limitPerMinute: number, used: number, msLeft: number): RateDecision {
  const reset = Math.max(1, Math.ceil(msLeft / 1000));
  const allowed = used <= limitPerMinute;
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(limitPerMinute),
    "RateLimit-Remaining": String(Math.max(0, limitPerMinute - used)),
    "RateLimit-Reset": String(reset),
  };
  if (!allowed) headers["Retry-After"] = String(reset);
  return { allowed, headers };
}

export function createRateLimiter(limitPerMinute: number, now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { start: number; used: number }>();
  return {
    async take(key) {
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
      const allowed = window.used < limitPerMinute;
      if (allowed) window.used += 1;
      return decide(limitPerMinute, allowed ? window.used : window.used + 1, window.start + windowMs - time);
    },
  };
}

/** The limit shared by every service process on one PostgreSQL: one upsert per request. */
export function createSharedRateLimiter(limitPerMinute: number, windows: RateWindowStore): RateLimiter {
  return {
    async take(key) {
      const { used, secondsLeft } = await windows.count(key, windowMs / 1000);
      return decide(limitPerMinute, used, secondsLeft * 1000);
    },
  };
}
