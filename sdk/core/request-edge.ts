/** Who asks and where from, at any HTTP edge: the request id a person can quote, and the same-origin check. */
import { HttpProblem } from "./http-problem.ts";

const acceptableRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/** A new request id: `req_` and 24 random hex digits, one word to double-click and quote. */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `req_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** The caller's `X-Request-ID` when it is a safe token, so its logs and ours share it; otherwise a new one. */
export function requestIdFor(request: Request): string {
  const given = request.headers.get("X-Request-ID");
  return given !== null && acceptableRequestId.test(given) ? given : newRequestId();
}

/**
 * Refuses (403) a request that changes something (anything but GET and HEAD) from another origin. Cookies ride
 * along on cross-site requests; the `Origin` header is what a forged form or script cannot fake, and browsers
 * send it on every such request.
 *
 * @example
 * assertSameOrigin(request, ["https://app.example"]);
 */
export function assertSameOrigin(request: Request, allowed: Iterable<string>): void {
  if (request.method === "GET" || request.method === "HEAD") return;
  const origin = request.headers.get("Origin");
  const origins = [...allowed];
  if (origin !== null && origins.includes(origin)) return;
  // The app's own origin is public; naming both is what lets a developer on 127.0.0.1 see why localhost works.
  const from = origin === null ? "This request carried no Origin" : `This request came from ${origin}`;
  throw new HttpProblem(
    403,
    "forbidden",
    `${from}, but changes are taken only from the app's own origin, ${origins.join(" or ")}. Open the app at that address, or add this origin to allowedOrigin.`,
  );
}
