/**
 * An answer given before the request's body has all arrived (a 413, or a 401/404 that never read it) waits for
 * the rest and throws it away, so the connection it says is kept alive can carry the next request. A rest too
 * large to wait for gets `Connection: close` instead, which is what happens then.
 */
import { IncomingMessage } from "node:http";
import type { Http2ServerRequest } from "node:http2";

/** How much of an unread body is read and thrown away before the connection is given up instead. */
const maxDiscardBytes = 64 * 1024 * 1024;

export async function settleUnreadBody(
  incoming: IncomingMessage | Http2ServerRequest,
  response: Response,
  limit = maxDiscardBytes,
): Promise<Response> {
  // Everything has arrived (@hono/node-server reads what is still buffered at once), or an HTTP/2 stream, which
  // does not hold up the connection.
  if (!(incoming instanceof IncomingMessage) || incoming.complete) return response;
  const declared = Number(incoming.headers["content-length"] ?? Number.NaN);
  if (declared > limit || !(await discardRest(incoming, limit))) return closingConnection(response);
  return response;
}

/** Reads the rest of the body into nothing; false when more than `limit` bytes came or the client went away. */
function discardRest(incoming: IncomingMessage, limit: number): Promise<boolean> {
  return new Promise((resolve) => {
    let bytes = 0;
    const finish = (whole: boolean) => {
      incoming.off("data", count);
      incoming.off("end", ended);
      incoming.off("close", closed);
      resolve(whole);
    };
    const count = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= limit) return;
      incoming.pause();
      finish(false);
    };
    const ended = () => finish(true);
    const closed = () => finish(incoming.complete);
    // The handler's abandoned body reader would otherwise keep in memory all that is thrown away here.
    incoming.removeAllListeners("data");
    incoming.on("data", count);
    incoming.on("end", ended);
    incoming.on("close", closed);
    incoming.resume();
  });
}

function closingConnection(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("Connection", "close");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
