/**
 * Long polling with standard headers: a GET with `If-None-Match` (the ETag of what the client last saw)
 * and `Prefer: wait=N` (RFC 7240) is held until what it lists changes or N seconds pass; then it gets
 * the new listing, or `304 Not Modified`.
 */
import { createHash } from "node:crypto";

/** A client may wait at most this long; proxies commonly cut idle requests at 60 s. */
export const maxWaitSeconds = 30;

/** Milliseconds the request may be held: 0 without a `Prefer: wait=N` the service can honour. */
export function preferredWaitMs(prefer: string | undefined): number {
  const seconds = Number(/(?:^|[;,\s])wait\s*=\s*(\d+)/i.exec(prefer ?? "")?.[1] ?? 0);
  return Math.min(seconds, maxWaitSeconds) * 1000;
}

/** A strong validator for a JSON body: equal listings have equal tags. */
export function entityTag(body: string): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
}

/** Whether `If-None-Match` names `tag` (weak comparison, as RFC 9110 asks for this header). */
export function noneMatch(ifNoneMatch: string | undefined, tag: string): boolean {
  if (ifNoneMatch === undefined) return true;
  const opaque = (value: string) => value.trim().replace(/^W\//, "");
  return !ifNoneMatch.split(",").some((candidate) => opaque(candidate) === "*" || opaque(candidate) === tag);
}
