/** The public API's guard, in the order a caller fixes things: app code, key, scope, rate. */

import type { MiddlewareHandler } from "hono";
import { HttpProblem } from "../../sdk/core/index.ts";
import type { Scope } from "../../sdk/core/wire.ts";
import type { KeyStore, VerifiedKey } from "../store/keys.ts";
import type { AppVariables } from "./app.ts";
import type { RateLimiter } from "./rate-limit.ts";

export function requireApiKey(
  scope: Scope,
  keys: KeyStore,
  limiter: RateLimiter,
): MiddlewareHandler<{ Variables: AppVariables }> {
  return async (context, next) => {
    if (context.req.header("X-App-Code") !== "selfserve") {
      throw new HttpProblem(400, "app_code_required", "Send the header X-App-Code: selfserve.");
    }
    const match = /^Bearer\s+(\S+)$/i.exec(context.req.header("Authorization") ?? "");
    if (!match?.[1])
      throw new HttpProblem(401, "invalid_key", "Send the API key as Authorization: Bearer <key>.");
    const key = await keys.verify(match[1]);
    if (!key)
      throw new HttpProblem(401, "invalid_key", "The API key is unknown, malformed, revoked or expired.");
    // Not awaited: the request does not wait for, or fail with, this bookkeeping (recordUse logs its failures).
    void keys.recordUse(key.id);
    if (!key.scopes.includes(scope)) {
      throw new HttpProblem(403, "missing_scope", `This key lacks the scope "${scope}" this call needs.`);
    }
    const rate = await limiter.take(key.id);
    if (!rate.allowed) {
      throw new HttpProblem(
        429,
        "rate_limited",
        "Too many requests for this key; retry after Retry-After seconds.",
        {
          headers: rate.headers,
        },
      );
    }
    context.set("apiKey", key);
    await next();
    for (const [name, value] of Object.entries(rate.headers)) context.res.headers.set(name, value);
  };
}

/** A key acts only for its own assistant; any other id is 404, so it learns nothing about others. */
export function assertOwnAssistant(key: VerifiedKey, assistantId: string): void {
  if (key.assistantId !== assistantId)
    throw new HttpProblem(404, "not_found", `No assistant ${assistantId}.`);
}
