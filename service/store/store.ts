/** The service's storage: one Postgres dialect, embedded (PGlite, one owner process) or a server via DATABASE_URL. */
import { createAssistantStore } from "./assistants.ts";
import { type ChangeSignal, createChangeSignal } from "./change-signal.ts";
import { createDocumentStore } from "./documents.ts";
import { createKeyStore } from "./keys.ts";
import { migrate } from "./migrate.ts";
import { createPassageVectorStore } from "./passage-vectors.ts";
import { createPassageStore } from "./passages.ts";
import { createRateWindowStore } from "./rate-windows.ts";
import { createSessionStore } from "./sessions.ts";
import { createSnapshotStore } from "./snapshots.ts";
import { openPglite, openPostgres, type SqlClient } from "./sql-client.ts";

export interface Store {
  engine: SqlClient["engine"];
  assistants: ReturnType<typeof createAssistantStore>;
  documents: ReturnType<typeof createDocumentStore>;
  passages: ReturnType<typeof createPassageStore>;
  passageVectors: ReturnType<typeof createPassageVectorStore>;
  /** Every change to what `documents.list` returns, made through this store. */
  documentChanges: ChangeSignal;
  keys: ReturnType<typeof createKeyStore>;
  sessions: ReturnType<typeof createSessionStore>;
  snapshots: ReturnType<typeof createSnapshotStore>;
  rateWindows: ReturnType<typeof createRateWindowStore>;
  close(): Promise<void>;
}

export function createStore(client: SqlClient): Store {
  const documentChanges = createChangeSignal();
  return {
    engine: client.engine,
    assistants: createAssistantStore(client, documentChanges),
    // As keys: embedded storage has one owner process, whose writes all pass `documentChanges`.
    documents: createDocumentStore(client, documentChanges, { cacheSliceable: client.engine === "pglite" }),
    passages: createPassageStore(client, documentChanges),
    passageVectors: createPassageVectorStore(client, documentChanges),
    documentChanges,
    // Embedded storage has one owner process, so key records can be cached; a shared PostgreSQL cannot.
    keys: createKeyStore(client, { cacheMs: client.engine === "pglite" ? 60_000 : 0 }),
    sessions: createSessionStore(client),
    snapshots: createSnapshotStore(client),
    rateWindows: createRateWindowStore(client),
    close: () => client.close(),
  };
}

/** Opens PostgreSQL when `databaseUrl` is set, else PGlite in `pgliteDir`, and brings the schema up to date. */
export async function openStore(options: { databaseUrl?: string; pgliteDir: string }): Promise<Store> {
  const client = options.databaseUrl
    ? await openPostgres(options.databaseUrl)
    : await openPglite(options.pgliteDir);
  try {
    await migrate(client);
  } catch (error) {
    await client.close();
    throw error;
  }
  return createStore(client);
}
