/** The public API's key guard: a request with a good key is answered even while its use cannot be recorded. */
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createKeyStore } from "../store/keys.ts";
import { migrate } from "../store/migrate.ts";
import { openPglite, type SqlClient, type SqlQueryable, type SqlValue } from "../store/sql-client.ts";
import { temporaryPgliteDir } from "../testing/pglite-template.ts";
import type { AppVariables } from "./app.ts";
import { requireApiKey } from "./public-auth.ts";
import { createRateLimiter } from "./rate-limit.ts";

describe("the key guard while the key's use cannot be written", () => {
  let client: SqlClient;
  beforeAll(async () => {
    client = await openPglite(temporaryPgliteDir("cka-public-auth-"));
    await migrate(client);
    await client.execute(`insert into assistants (id, name) values ('asst_guard', 'Guard')`);
  });
  afterAll(async () => {
    await client.close();
  });

  it("answers the request, and logs the failed write", async () => {
    // The real database, except that recording a use fails as a degraded one would.
    const degraded: SqlQueryable = {
      query<Row>(sql: string, params?: readonly SqlValue[]): Promise<Row[]> {
        if (sql.includes("set last_used_at")) return Promise.reject(new Error("too many clients already"));
        return client.query<Row>(sql, params);
      },
    };
    const keys = createKeyStore(degraded);
    const { key } = await keys.create("asst_guard", ["ask"], "guarded");
    const app = new Hono<{ Variables: AppVariables }>();
    app.post("/ask", requireApiKey("ask", keys, createRateLimiter(5)), (context) =>
      context.json({ key: context.get("apiKey").id }),
    );
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const response = await app.request("/ask", {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "X-App-Code": "selfserve" },
      });
      expect(response.status).toBe(200);
      await vi.waitFor(() => expect(logged).toHaveBeenCalledWith(expect.stringMatching(/too many clients/)));
    } finally {
      logged.mockRestore();
    }
  });
});
