/** Request ids: echo a caller's well-formed X-Request-ID, otherwise mint one. */
import { randomBytes } from "node:crypto";

const acceptable = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(request: Request): string {
  const given = request.headers.get("X-Request-ID");
  if (given && acceptable.test(given)) return given;
  return newRequestId();
}

export function newRequestId(): string {
  return `req_${randomBytes(12).toString("base64url")}`;
}
