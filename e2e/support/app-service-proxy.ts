/**
 * A loopback proxy between the app's route handler and the service: it counts every request that
 * reaches the service (the service keeps no request log), and can pace the lines of answer streams
 * the way a slow model or network would, so a person has time to press Stop.
 */
import { createServer, request as forward, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ProxiedRequest {
  method: string;
  /** Path and query, as the app asked for it. */
  path: string;
  /** The service's status, once its headers arrived. */
  status: number | null;
  /** True when the app closed the connection before the service's response had ended. */
  closedEarly: boolean;
  /** True once the whole response went back to the app. */
  finished: boolean;
}

export interface ServiceProxy {
  readonly url: string;
  /** Every request so far, oldest first. */
  requests(): readonly ProxiedRequest[];
  /** How many requests have arrived so far: pass it to `requestsSince` to see what came after. */
  mark(): number;
  requestsSince(mark: number): readonly ProxiedRequest[];
  /**
   * Holds each NDJSON line of answer streams for `milliseconds` before passing it on; null stops
   * pacing. With `after`, lines pass at once up to and including the first one it matches, and
   * only the later ones are held: a stream that stalls midway.
   */
  paceAnswerLines(milliseconds: number | null, after?: (line: string) => boolean): void;
  /** While true, every connection is dropped unanswered, as when the service is down. */
  simulateOutage(down: boolean): void;
  stop(): Promise<void>;
}

const hopByHopHeaders = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host"]);

function forwardedHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHopHeaders.has(name)));
}

const wait = (milliseconds: number) => new Promise((resolveWait) => setTimeout(resolveWait, milliseconds));

export async function startServiceProxy(serviceUrl: string): Promise<ServiceProxy> {
  const target = new URL(serviceUrl);
  const log: ProxiedRequest[] = [];
  let lineDelay: number | null = null;
  let paceAfter: ((line: string) => boolean) | undefined;
  let outage = false;

  const server: Server = createServer((incoming, outgoing) => {
    const record: ProxiedRequest = {
      method: incoming.method ?? "GET",
      path: incoming.url ?? "/",
      status: null,
      closedEarly: false,
      finished: false,
    };
    log.push(record);
    if (outage) {
      record.closedEarly = true;
      incoming.socket.destroy();
      return;
    }
    const upstream = forward(
      {
        hostname: target.hostname,
        port: target.port,
        method: record.method,
        path: record.path,
        headers: { ...forwardedHeaders(incoming.headers), host: target.host },
      },
      async (response) => {
        record.status = response.statusCode ?? 502;
        outgoing.writeHead(record.status, forwardedHeaders(response.headers));
        const paced =
          lineDelay !== null && (response.headers["content-type"] ?? "").startsWith("application/x-ndjson");
        if (!paced) {
          response.pipe(outgoing);
          return;
        }
        let pending = "";
        let pacing = paceAfter === undefined;
        const startsPacing = paceAfter;
        try {
          for await (const chunk of response) {
            pending += String(chunk);
            let newline = pending.indexOf("\n");
            while (newline !== -1 && !outgoing.destroyed) {
              const line = pending.slice(0, newline + 1);
              if (pacing) await wait(lineDelay ?? 0);
              else if (startsPacing?.(line)) pacing = true;
              outgoing.write(line);
              pending = pending.slice(newline + 1);
              newline = pending.indexOf("\n");
            }
            if (outgoing.destroyed) break;
          }
          if (!outgoing.destroyed) outgoing.end(pending);
        } catch {
          // The app closed the connection and the service's response was destroyed with it.
          outgoing.destroy();
        }
      },
    );
    upstream.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    outgoing.on("finish", () => {
      record.finished = true;
    });
    outgoing.on("close", () => {
      if (!outgoing.writableFinished) {
        record.closedEarly = true;
        // The app went away: the service's work stops too, as it would without the proxy.
        upstream.destroy();
      }
    });
    incoming.pipe(upstream);
  });

  await new Promise<void>((resolveListen) => server.listen(0, "127.0.0.1", resolveListen));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => log,
    mark: () => log.length,
    requestsSince: (mark) => log.slice(mark),
    paceAnswerLines(milliseconds, after) {
      lineDelay = milliseconds;
      paceAfter = after;
    },
    simulateOutage(down) {
      outage = down;
    },
    stop: () =>
      new Promise((resolveStop) => {
        server.closeAllConnections();
        server.close(() => resolveStop());
      }),
  };
}
