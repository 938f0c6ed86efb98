/**
 * Test support: serves a Fetch-style handler on 127.0.0.1 at a free port, so real clients can call it.
 * Bodies are read and sent whole (no streaming), which is all the stand-ins and test hosts need.
 */
import { createServer, type IncomingMessage } from "node:http";

export interface ServedHandler {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** Stops listening and cuts open connections; closing twice is harmless. */
  close(): Promise<void>;
}

async function toRequest(incoming: IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD";
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(Buffer.from(chunk));
  return new Request(new URL(incoming.url ?? "/", origin), {
    method: incoming.method,
    headers,
    ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
  });
}

type FetchHandler = (request: Request) => Promise<Response>;

/** `makeHandler` gets the server's URL first, for handlers that must know it (an issuer, a redirect). */
export async function serveFetchHandler(
  makeHandler: (url: string) => FetchHandler | Promise<FetchHandler>,
): Promise<ServedHandler> {
  let origin = "";
  let handler: FetchHandler | undefined;
  const server = createServer((incoming, outgoing) => {
    toRequest(incoming, origin)
      .then((request) => {
        if (!handler) throw new Error("A request arrived before the handler was ready");
        return handler(request);
      })
      .then(async (response) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch((error: unknown) => {
        // A handler that throws is a bug in the test's stand-in: answer 500 and say why.
        if (outgoing.headersSent) {
          outgoing.destroy(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        outgoing.writeHead(500, { "Content-Type": "text/plain" });
        outgoing.end(error instanceof Error ? error.stack : String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string")
    throw new Error("the server is not listening on a port");
  origin = `http://127.0.0.1:${address.port}`;
  try {
    handler = await makeHandler(origin);
  } catch (error) {
    server.close();
    throw error;
  }
  let closed: Promise<void> | null = null;
  return {
    url: origin,
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
