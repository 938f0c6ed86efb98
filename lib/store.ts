/**
 * The app's ServiceStore in embedded mode: the SDK's SQL store on PGlite under CITED_APP_DATA_DIR,
 * its tables made by the very migrations in supabase/migrations (in schema `cited`, where they
 * move after the row-level security). One store per server process; it connects as PGlite's
 * superuser, who owns the tables and so is not held by row-level security.
 */
import "server-only";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { createSqlServiceStore, type ServiceStore } from "@/sdk/server/index.ts";
import { serverEnvironment } from "./env.ts";

/**
 * Applies the files of supabase/migrations not applied yet, in name order, each in its own
 * transaction, after supabase/local-platform.sql: the roles and auth functions Supabase would
 * provide, which the row-level security migration names.
 */
export async function applyMigrations(database: PGlite): Promise<string[]> {
  // Spelled out in full so that Next.js's output tracing includes only these files.
  const folder = join(process.cwd(), "supabase", "migrations");
  await database.exec(readFileSync(join(process.cwd(), "supabase", "local-platform.sql"), "utf8"));
  await database.exec(
    "create table if not exists cited_app_migrations (name text primary key, applied_at timestamptz not null default now())",
  );
  const applied = new Set(
    (await database.query<{ name: string }>("select name from cited_app_migrations")).rows.map(
      (row) => row.name,
    ),
  );
  const pending = readdirSync(folder)
    .filter((name) => name.endsWith(".sql") && !applied.has(name))
    .sort();
  for (const name of pending) {
    const sql = readFileSync(join(folder, name), "utf8");
    await database.transaction(async (transaction) => {
      await transaction.exec(sql);
      await transaction.query("insert into cited_app_migrations (name) values ($1)", [name]);
    });
  }
  return pending;
}

async function openStore(): Promise<ServiceStore> {
  const folder = resolve(serverEnvironment().CITED_APP_DATA_DIR, "pglite");
  mkdirSync(folder, { recursive: true });
  const database = await PGlite.create(folder);
  await applyMigrations(database);
  return createSqlServiceStore({ client: database, schema: "cited" });
}

// Kept on globalThis: Next.js re-evaluates modules on hot reload, and PGlite allows one owner per folder.
const holder = globalThis as typeof globalThis & { citedAppStore?: Promise<ServiceStore> };

export function appStore(): Promise<ServiceStore> {
  holder.citedAppStore ??= openStore().catch((error: unknown) => {
    holder.citedAppStore = undefined;
    throw error;
  });
  return holder.citedAppStore;
}

/** The store as the SDK handler takes it: each call waits for the database to be open. */
export const lazyAppStore: ServiceStore = {
  createConversation: async (...args) => (await appStore()).createConversation(...args),
  listConversations: async (...args) => (await appStore()).listConversations(...args),
  getConversation: async (...args) => (await appStore()).getConversation(...args),
  renameConversation: async (...args) => (await appStore()).renameConversation(...args),
  deleteConversation: async (...args) => (await appStore()).deleteConversation(...args),
  addUserMessage: async (...args) => (await appStore()).addUserMessage(...args),
  saveAnswer: async (...args) => (await appStore()).saveAnswer(...args),
  listMessages: async (...args) => (await appStore()).listMessages(...args),
  findReference: async (...args) => (await appStore()).findReference(...args),
  replaceReferenceToken: async (...args) => (await appStore()).replaceReferenceToken(...args),
};
