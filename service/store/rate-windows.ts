/** Request counts per key in fixed windows, kept in PostgreSQL so every service process counts against one limit. */
import type { SqlQueryable } from "./sql-client.ts";

export interface WindowCount {
  /** Requests in the current window, this one included. */
  used: number;
  secondsLeft: number;
}

export function createRateWindowStore(db: SqlQueryable) {
  return {
    /** Counts one request for `key`; a window older than `windowSeconds` starts over. One statement, so counts never race. */
    async count(key: string, windowSeconds: number): Promise<WindowCount> {
      const [row] = await db.query<{ used: number; seconds_left: number }>(
        `insert into rate_limit_windows as w (key, window_start, used) values ($1, now(), 1)
         on conflict (key) do update set
           used = case when w.window_start <= now() - make_interval(secs => $2) then 1 else w.used + 1 end,
           window_start = case when w.window_start <= now() - make_interval(secs => $2)
             then now() else w.window_start end
         returning w.used, extract(epoch from w.window_start + make_interval(secs => $2) - now())::float8 as seconds_left`,
        [key, windowSeconds],
      );
      if (!row) throw new Error("counting a request returned no row");
      return { used: row.used, secondsLeft: row.seconds_left };
    },
  };
}

export type RateWindowStore = ReturnType<typeof createRateWindowStore>;
