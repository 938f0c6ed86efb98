/**
 * Hears the changes every process sharing a PostgreSQL database commits (the `cka_changes` channel, fed by
 * triggers), one at a time and in commit order. A dropped connection is reopened; `onListening` then
 * runs again so the caller can catch up on whatever was committed while nobody listened.
 */
import pg from "pg";
import { z } from "zod";
import type { Logger } from "../logger.ts";

const channel = "cka_changes";

const changeSchema = z.object({
  assistant: z.string(),
  /** Null when the assistant itself was deleted. */
  document: z.string().nullable(),
  status: z.enum(["queued", "processing", "ready", "failed", "deleted"]),
});

export type StoredChange = z.infer<typeof changeSchema>;

export interface ChangeFeedHandlers {
  onChange(change: StoredChange): Promise<void>;
  /** Runs once listening starts and after each reconnection, before any change heard on that connection. */
  onListening(reconnected: boolean): Promise<void>;
}

const retryMs = { first: 100, max: 2000 };

export async function openChangeFeed(
  connectionString: string,
  handlers: ChangeFeedHandlers,
  logger: Logger,
): Promise<{ close(): Promise<void> }> {
  let client: pg.Client | null = null;
  let closed = false;
  let retryTimer: NodeJS.Timeout | null = null;
  // Changes are applied one after another: a deletion must never overtake the readiness it follows.
  let applying: Promise<void> = Promise.resolve();
  const enqueue = (work: () => Promise<void>, what: string) => {
    applying = applying
      .then(work)
      .catch((error: unknown) => logger.error(`change feed: ${what} failed`, { error: String(error) }));
  };

  async function listen(reconnected: boolean): Promise<void> {
    const connection = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
    connection.on("notification", (message) => {
      const parsed = changeSchema.safeParse(JSON.parse(message.payload ?? "null"));
      if (!parsed.success) {
        logger.error("change feed: unreadable notification", { payload: message.payload });
        return;
      }
      enqueue(() => handlers.onChange(parsed.data), "applying a change");
    });
    const lost = (reason: string) => {
      if (client !== connection) return;
      logger.warn("change feed: connection lost", { reason });
      reconnectSoon(retryMs.first);
    };
    connection.on("error", (error) => lost(error.message));
    connection.on("end", () => lost("ended"));
    try {
      await connection.connect();
      await connection.query(`listen ${channel}`);
    } catch (error) {
      await connection
        .end()
        .catch((endError: unknown) =>
          logger.warn("change feed: closing a failed connection failed", { error: String(endError) }),
        );
      throw error;
    }
    client = connection;
    enqueue(() => handlers.onListening(reconnected), "catching up");
  }

  function reconnectSoon(delayMs: number): void {
    client = null;
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (closed) return;
      listen(true)
        .then(() => logger.info("change feed: listening again"))
        .catch((error: unknown) => {
          logger.warn("change feed: reconnect failed", { error: String(error), retryInMs: delayMs });
          reconnectSoon(Math.min(delayMs * 2, retryMs.max));
        });
    }, delayMs);
  }

  await listen(false);
  return {
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const connection = client;
      client = null;
      await connection?.end();
      await applying;
    },
  };
}
