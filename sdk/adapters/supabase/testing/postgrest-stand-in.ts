/**
 * Test support: the PostgREST part of the Supabase stand-in (the `rest` option of
 * startSupabaseStandIn). Only the HTTP protocol is stood in: the SQL runs for real on PGlite or a
 * PostgreSQL server, as the caller's database role, so row-level security and the functions' own
 * checks decide what a caller may do. It is NOT PostgREST; it covers exactly this, as supabase-js
 * 2.119's `.rpc(name, args)` and `.from(table)` send it:
 *
 * - `POST /rest/v1/rpc/<function>` with a JSON object of named arguments (`Content-Type:
 *   application/json`). The function is looked up in pg_proc by name and argument names (arguments
 *   with defaults may be left out), only among functions whose arguments are all IN; the arguments
 *   reach it as PostgREST passes them, through `json_to_record` with the functions' own types.
 * - `/rest/v1/<table>` with any method, only as far as PostgREST refuses it: a name that is no
 *   table, view or foreign table of the request's schema (tables in schemas that are not exposed
 *   included) → 404 PGRST205 `Could not find the table '<schema>.<name>' in the schema cache`,
 *   with a null hint (no "Perhaps you meant" suggestion).
 * - Schema from `Content-Profile`, or `Accept-Profile` for GET and HEAD (default: the first
 *   exposed schema); another schema → 406 PGRST106.
 * - One transaction per function call: `role` set to the claims' `role` (no claims → `anon`),
 *   `request.jwt.claims` to the claims as JSON (`{"role":"anon"}` for anon), `request.method`,
 *   `request.path` and `search_path` to the schema; read-only for a STABLE or IMMUTABLE function,
 *   so a write in one fails with 25006 (405); committed on success, rolled back on an error.
 * - The answer is 200 with the result as JSON: the value of a function returning one value (a
 *   scalar, jsonb, or a row as an object; SQL null as `null`), an array for `returns setof`.
 * - Errors as `{ code, details, hint, message }` with PostgREST's status for the SQLSTATE
 *   (42501 → 401 for anon with `WWW-Authenticate: Bearer`, 403 otherwise; P0001 → 400; PTxyz → xyz;
 *   23503/23505 → 409; 42883/42P01 → 404; 08*, 53* → 503; …; any other → 400), an unknown function
 *   → 404 PGRST202, several candidates → 300 PGRST203, a body that is not JSON → 400 PGRST102,
 *   an `Accept` other than JSON → 406 PGRST107.
 * Not covered (answered 501 with code STANDIN so nobody mistakes it for the real thing): the tables
 * and views of an exposed schema (reading or writing them, filters, `select=`), GET/HEAD calls of
 * functions, `Prefer` (count, return, tx, params), bulk calls with an array body, functions with
 * OUT/INOUT/VARIADIC or unnamed arguments, `application/vnd.pgrst.*` media types, the OpenAPI
 * root, the schema cache's reload (each call reads pg_proc and pg_class afresh), `db-pre-request`,
 * response headers set by functions (`response.headers`), pooling limits and timeouts.
 */
import { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { z } from "zod";
import { quoteIdentifier } from "../../../server/sql/service-store-schema.ts";

/** The database the stand-in runs the SQL on: the same engine as the tests that apply the migrations. */
export type PostgrestDatabase = PGlite | pg.Pool;

export interface PostgrestStandInOptions {
  /** Schemas the Data API exposes (PostgREST's `db-schemas`). Default `["public"]`. */
  schemas?: readonly string[];
}

/** The `rest` option of startSupabaseStandIn: claims are null when only the publishable key came. */
export type PostgrestHandler = (
  request: Request,
  claims: Record<string, unknown> | null,
) => Promise<Response>;

type Query = (sql: string, params: unknown[]) => Promise<{ rows: unknown[] }>;

const functionRowSchema = z.object({
  returns_set: z.boolean(),
  /** provolatile: immutable, stable or volatile. */
  volatility: z.enum(["i", "s", "v"]),
  arg_names: z.array(z.string()).nullable(),
  arg_types: z.array(z.string()),
  arg_modes: z.array(z.string()).nullable(),
  default_count: z.number().int(),
});

type FunctionRow = z.infer<typeof functionRowSchema>;

/** What Postgres (PGlite's and `pg`'s DatabaseError alike) says about a failed statement. */
const databaseErrorSchema = z.object({
  code: z.string().regex(/^[0-9A-Z]{5}$/),
  message: z.string(),
  detail: z.string().optional(),
  hint: z.string().optional(),
});

const namedArgumentsSchema = z.record(z.string(), z.unknown());
const resultRowSchema = z.object({ value: z.unknown() });

/**
 * Creates the PostgREST stand-in on `database` (with the migrations applied, including Supabase's
 * roles and auth schema from supabase/local-platform.sql).
 *
 * @example
 * const standIn = await startSupabaseStandIn({ rest: createPostgrestStandIn(database) });
 */
export function createPostgrestStandIn(
  database: PostgrestDatabase,
  options: PostgrestStandInOptions = {},
): PostgrestHandler {
  const schemas = options.schemas ?? ["public"];

  return async function rest(request, claims) {
    const table = /^\/rest\/v1\/([^/]+)$/.exec(new URL(request.url).pathname)?.[1];
    if (table !== undefined && table !== "rpc") return tableRequest(database, request, schemas, table);
    const call = await readCall(request, schemas);
    if (call instanceof Response) return call;
    try {
      return await inTransaction(database, (query) => runCall(query, call, claims));
    } catch (error) {
      const parsed = databaseErrorSchema.safeParse(error);
      if (!parsed.success) throw error;
      const { code, message, detail, hint } = parsed.data;
      const status = statusOf(code, claims !== null);
      return failure(status, code, message, {
        details: detail ?? null,
        hint: hint ?? null,
        ...(status === 401 ? { headers: { "WWW-Authenticate": "Bearer" } } : {}),
      });
    }
  };
}

interface FunctionCall {
  path: string;
  schema: string;
  name: string;
  args: Record<string, unknown>;
}

/** The function call a request asks for, or PostgREST's refusal of it (406, 400) or the stand-in's (501). */
async function readCall(request: Request, schemas: readonly string[]): Promise<FunctionCall | Response> {
  const path = new URL(request.url).pathname;
  const encodedName = /^\/rest\/v1\/rpc\/([^/]+)$/.exec(path)?.[1];
  if (encodedName === undefined || request.method !== "POST") {
    return notCovered(`${request.method} ${path}: the stand-in answers only POST /rest/v1/rpc/<function>`);
  }
  if (request.headers.has("Prefer")) return notCovered(`Prefer: ${request.headers.get("Prefer")}`);
  const accept = request.headers.get("Accept");
  if (accept !== null && !/^(\*\/\*|application\/json)(;.*)?$/.test(accept)) {
    return failure(406, "PGRST107", `None of these media types are available: ${accept}`);
  }
  const schema = requestSchema(request, schemas);
  if (schema instanceof Response) return schema;
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch (error) {
    return failure(400, "PGRST102", "Empty or invalid json", { details: String(error) });
  }
  if (Array.isArray(body)) return notCovered("bulk calls (an array body)");
  const args = namedArgumentsSchema.safeParse(body);
  if (!args.success) return failure(400, "PGRST102", "Empty or invalid json");
  return { path, schema, name: decodeURIComponent(encodedName), args: args.data };
}

/** The schema a request names in its profile header, or PostgREST's refusal of one it does not expose. */
function requestSchema(request: Request, schemas: readonly string[]): string | Response {
  const header = ["GET", "HEAD"].includes(request.method) ? "Accept-Profile" : "Content-Profile";
  const schema = request.headers.get(header) ?? schemas[0];
  if (schema === undefined || !schemas.includes(schema)) {
    return failure(406, "PGRST106", `Invalid schema: ${schema}`, {
      hint: `Only the following schemas are exposed: ${schemas.join(", ")}`,
    });
  }
  return schema;
}

/**
 * A request for a table: PostgREST's 404 when the schema has no table, view or foreign table of
 * that name (as for the tables of a schema it does not expose), else the stand-in's 501.
 */
async function tableRequest(
  database: PostgrestDatabase,
  request: Request,
  schemas: readonly string[],
  encodedName: string,
): Promise<Response> {
  const schema = requestSchema(request, schemas);
  if (schema instanceof Response) return schema;
  const name = decodeURIComponent(encodedName);
  const { rows } = await inTransaction(database, (query) =>
    query(
      `select from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'p', 'v', 'm', 'f')`,
      [schema, name],
    ),
  );
  if (rows.length === 0) {
    return failure(404, "PGRST205", `Could not find the table '${schema}.${name}' in the schema cache`);
  }
  return notCovered(
    `${request.method} ${new URL(request.url).pathname}: the tables and views of an exposed schema`,
  );
}

/** Finds the function as PostgREST would, then calls it as the claims' role with the claims set. */
async function runCall(
  query: Query,
  { path, schema, name, args }: FunctionCall,
  claims: Record<string, unknown> | null,
): Promise<Response> {
  const candidates = await functionsNamed(query, schema, name);
  if (candidates.some((candidate) => candidate.arg_modes?.some((mode) => mode !== "i"))) {
    return notCovered("functions with OUT, INOUT or VARIADIC arguments");
  }
  const keys = Object.keys(args);
  const [found, ...others] = candidates.filter((candidate) => accepts(candidate, keys));
  if (found === undefined) return unknownFunction(schema, name, keys, candidates);
  if (others.length > 0) {
    return failure(300, "PGRST203", `Could not choose the best candidate function for ${schema}.${name}`);
  }
  const role = typeof claims?.role === "string" ? claims.role : "anon";
  // PostgREST runs a function that declares it changes nothing in a read-only transaction.
  if (found.volatility !== "v") await query("set transaction read only", []);
  await query(
    `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
            set_config('request.method', 'POST', true), set_config('request.path', $3, true),
            set_config('search_path', $4, true)`,
    [role, JSON.stringify(claims ?? { role: "anon" }), path, quoteIdentifier(schema)],
  );
  const call = callSql(schema, name, found, args);
  const { rows } = await query(call.sql, call.params);
  const values = rows.map((row) => resultRowSchema.parse(row).value);
  return Response.json(found.returns_set ? values : (values[0] ?? null), {
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });
}

/** Runs `work` in one transaction on a PGlite or on one pooled connection, rolled back if it throws. */
async function inTransaction<T>(database: PostgrestDatabase, work: (query: Query) => Promise<T>): Promise<T> {
  if (database instanceof PGlite) {
    return database.transaction((transaction) => work((sql, params) => transaction.query(sql, params)));
  }
  const client = await database.connect();
  try {
    await client.query("begin");
    const result = await work((sql, params) => client.query(sql, params));
    await client.query("commit");
    return result;
  } catch (error) {
    await client.query("rollback");
    throw error;
  } finally {
    client.release();
  }
}

async function functionsNamed(query: Query, schema: string, name: string): Promise<FunctionRow[]> {
  const { rows } = await query(
    `select p.proretset as returns_set, p.provolatile::text as volatility, p.proargnames::text[] as arg_names,
            array(select pg_catalog.format_type(t.type, null)
                  from unnest(p.proargtypes::oid[]) with ordinality as t (type, position)
                  order by t.position) as arg_types,
            p.proargmodes::text[] as arg_modes, p.pronargdefaults::int as default_count
     from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
     where n.nspname = $1 and p.proname = $2 and p.prokind = 'f'`,
    [schema, name],
  );
  return rows.map((row) => functionRowSchema.parse(row));
}

/** PostgREST's rule: every key names an argument, and every argument without a default has a key. */
function accepts(candidate: FunctionRow, keys: readonly string[]): boolean {
  if (candidate.arg_types.length === 0) return keys.length === 0;
  const names = candidate.arg_names ?? [];
  // Unnamed arguments cannot be passed by name.
  if (names.length !== candidate.arg_types.length || names.includes("")) return false;
  const required = names.slice(0, names.length - candidate.default_count);
  return keys.every((key) => names.includes(key)) && required.every((name) => keys.includes(name));
}

/** `select` of the function with the body's keys as named arguments, typed by `json_to_record`. */
function callSql(
  schema: string,
  name: string,
  found: FunctionRow,
  args: Record<string, unknown>,
): { sql: string; params: unknown[] } {
  const keys = Object.keys(args);
  const target = `${quoteIdentifier(schema)}.${quoteIdentifier(name)}`;
  if (keys.length === 0)
    return { sql: `select to_jsonb(_result) as value from ${target}() as _result`, params: [] };
  const names = found.arg_names ?? [];
  const columns = keys.map((key) => `${quoteIdentifier(key)} ${found.arg_types[names.indexOf(key)]}`);
  const call = keys.map((key) => `${quoteIdentifier(key)} => _args.${quoteIdentifier(key)}`);
  return {
    sql: `select to_jsonb(_result) as value
          from json_to_record($1::json) as _args (${columns.join(", ")}),
               lateral ${target}(${call.join(", ")}) as _result`,
    params: [JSON.stringify(args)],
  };
}

/** PostgREST's status for a SQLSTATE (docs.postgrest.org, references/errors). */
function statusOf(code: string, authenticated: boolean): number {
  if (code === "42501") return authenticated ? 403 : 401;
  if (/^PT\d{3}$/.test(code)) return Number(code.slice(2));
  const exact: Record<string, number> = {
    "23503": 409,
    "23505": 409,
    "25006": 405,
    "53400": 500,
    "42883": 404,
    "42P01": 404,
    "42P17": 500,
    P0001: 400,
  };
  const exactStatus = exact[code];
  if (exactStatus !== undefined) return exactStatus;
  const byClass: Record<string, number> = {
    "08": 503,
    "09": 500,
    "0L": 403,
    "0P": 403,
    "25": 500,
    "28": 403,
    "2D": 500,
    "38": 500,
    "39": 500,
    "3B": 500,
    "40": 500,
    "53": 503,
    "54": 500,
    "55": 500,
    "57": 500,
    "58": 500,
    F0: 500,
    HV: 500,
    P0: 500,
    XX: 500,
  };
  return byClass[code.slice(0, 2)] ?? 400;
}

function unknownFunction(
  schema: string,
  name: string,
  keys: readonly string[],
  candidates: readonly FunctionRow[],
): Response {
  const sorted = [...keys].sort();
  const parameters = sorted.length === 0 ? "without parameters" : `with parameters ${sorted.join(", ")}`;
  const [nearest] = candidates;
  return failure(
    404,
    "PGRST202",
    `Could not find the function ${schema}.${name}(${sorted.join(", ")}) in the schema cache`,
    {
      details: `Searched for the function ${schema}.${name} ${parameters} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
      hint: nearest
        ? `Perhaps you meant to call the function ${schema}.${name}(${(nearest.arg_names ?? []).join(", ")})`
        : null,
    },
  );
}

function failure(
  status: number,
  code: string,
  message: string,
  extra: { details?: string | null; hint?: string | null; headers?: Record<string, string> } = {},
): Response {
  return Response.json(
    { code, details: extra.details ?? null, hint: extra.hint ?? null, message },
    { status, headers: { "Content-Type": "application/json; charset=utf-8", ...extra.headers } },
  );
}

function notCovered(what: string): Response {
  return failure(501, "STANDIN", `Not covered by the PostgREST stand-in: ${what}`, {
    hint: "See the list at the top of sdk/adapters/supabase/testing/postgrest-stand-in.ts",
  });
}
