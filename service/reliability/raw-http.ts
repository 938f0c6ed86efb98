/**
 * Bytes on a socket, for what `fetch` will not send: broken request lines, bad header bytes, lying
 * lengths. Reads one response (by its length, its chunks, or until the server closes).
 */
import { connect } from "node:net";

export interface RawAnswer {
  /** null when the server closed the connection without answering. */
  status: number | null;
  headers: Headers;
  body: string;
  /** The deadline passed with neither an answer nor a closed connection. */
  hung: boolean;
}

/**
 * `halfClose` ends the sending side after the bytes, so a request that lies about its length is
 * answered (or dropped) instead of waited on; a well-formed request keeps it open for its answer.
 */
export function sendRaw(url: string, bytes: Buffer, timeoutMs: number, halfClose = true): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (hung: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseResponse(received), hung });
    };
    const timer = setTimeout(() => finish(true), timeoutMs);
    socket.on("connect", () => (halfClose ? socket.end(bytes) : socket.write(bytes)));
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (complete(received)) finish(false);
    });
    socket.on("error", () => finish(false));
    socket.on("close", () => finish(false));
  });
}

function splitHead(bytes: Buffer): { head: string; body: Buffer } | null {
  const end = bytes.indexOf("\r\n\r\n");
  if (end < 0) return null;
  return { head: bytes.subarray(0, end).toString("latin1"), body: bytes.subarray(end + 4) };
}

function complete(bytes: Buffer): boolean {
  const parts = splitHead(bytes);
  if (!parts) return false;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(parts.head);
  if (length) return parts.body.length >= Number(length[1]);
  if (/\r\ntransfer-encoding:\s*chunked/i.test(parts.head))
    return parts.body.includes("\r\n0\r\n\r\n") || parts.body.subarray(0, 5).toString() === "0\r\n\r\n";
  return false;
}

function parseResponse(bytes: Buffer): Omit<RawAnswer, "hung"> {
  const parts = splitHead(bytes);
  if (!parts) return { status: null, headers: new Headers(), body: bytes.toString("latin1") };
  const [statusLine = "", ...headerLines] = parts.head.split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  const headers = new Headers();
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const body = /chunked/i.test(headers.get("Transfer-Encoding") ?? "") ? dechunk(parts.body) : parts.body;
  return { status: status ? Number(status[1]) : null, headers, body: body.toString("utf8") };
}

function dechunk(body: Buffer): Buffer {
  const chunks: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString("latin1"), 16);
    if (!Number.isFinite(size) || size === 0) break;
    chunks.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(chunks);
}
