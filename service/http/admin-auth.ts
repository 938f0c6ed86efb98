/** The sharing area's guard: a bearer admin token compared in constant time. */

import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { HttpProblem } from "../../sdk/core/index.ts";
import type { AppVariables } from "./app.ts";

const digest = (value: string) => createHash("sha256").update(value).digest();

export function requireAdminToken(adminToken: string): MiddlewareHandler<{ Variables: AppVariables }> {
  const expected = digest(adminToken);
  return async (context, next) => {
    const header = context.req.header("Authorization") ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1] || !timingSafeEqual(digest(match[1]), expected)) {
      throw new HttpProblem(
        401,
        "invalid_key",
        "Send the admin token as Authorization: Bearer <CKA_ADMIN_TOKEN>.",
      );
    }
    await next();
  };
}
