/** Applies the numbered SQL files in migrations/ once each, in order, inside a transaction per file. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SqlClient } from "./sql-client.ts";

const folder = join(import.meta.dirname, "migrations");

export async function migrate(client: SqlClient): Promise<string[]> {
  await client.execute(
    "create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())",
  );
  const applied = new Set(
    (await client.query<{ name: string }>("select name from schema_migrations")).map((row) => row.name),
  );
  const pending = readdirSync(folder)
    .filter((name) => name.endsWith(".sql") && !applied.has(name))
    .sort();
  for (const name of pending) {
    const script = readFileSync(join(folder, name), "utf8");
    await client.transaction(async (transaction) => {
      for (const statement of splitStatements(script)) await transaction.query(statement);
      await transaction.query("insert into schema_migrations (name) values ($1)", [name]);
    });
  }
  return pending;
}

/** Our migrations hold no functions or quoted semicolons, so splitting on `;` at line ends is exact. */
function splitStatements(script: string): string[] {
  return script
    .split(/;\s*$/m)
    .map((statement) => statement.replace(/^\s*--.*$/gm, "").trim())
    .filter((statement) => statement.length > 0);
}
