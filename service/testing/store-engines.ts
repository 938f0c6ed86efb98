/** The engines the store runs on, for tests that run once on each: PGlite in a temporary folder, and Debian's PostgreSQL. */
import { openStore, type Store } from "../store/store.ts";
import { temporaryPgliteDir } from "./pglite-template.ts";
import { startPostgres } from "./postgres.ts";

export interface OpenedStore {
  store: Store;
  /** Stops the engine's server, if it has one; close the store first. */
  stop(): void;
}

export const storeEngines: { name: string; open(): Promise<OpenedStore> }[] = [
  {
    name: "PGlite",
    open: async () => ({
      store: await openStore({ pgliteDir: temporaryPgliteDir("cka-pglite-") }),
      stop: () => {},
    }),
  },
  {
    name: "PostgreSQL",
    open: async () => {
      const postgres = await startPostgres();
      return {
        store: await openStore({ databaseUrl: postgres.url, pgliteDir: "" }),
        stop: () => postgres.stop(),
      };
    },
  },
];
