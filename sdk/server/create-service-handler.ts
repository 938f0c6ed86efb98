/** createServiceHandler: the host's one route to the service — auth, origin check, ownership, storage. */
import { z } from "zod";
import {
  assertSameOrigin,
  HttpProblem,
  internalProblem,
  newRequestId,
  parseInput,
  readJsonBody,
} from "../core/index.ts";
import {
  conversationCreateSchema,
  conversationRenameSchema,
  hostAskRequestSchema,
  hostRagRequestSchema,
  idUserSchema,
} from "../core/wire.ts";
import { relayAnswers } from "./answer-relay.ts";
import { checkHandlerSettings } from "./handler-config.ts";
import { serveImage, servePassageImage } from "./image-route.ts";
import { newMessageId } from "./message-id.ts";
import { servePassagePdf, servePdf } from "./pdf-route.ts";
import type { BackoffOptions } from "./retry-policy.ts";
import { assertServerRuntime } from "./server-only.ts";
import { createServiceClient, type ServiceClient } from "./service-client.ts";
import { problemFromServiceError } from "./service-problem.ts";
import type { ServiceStore } from "./service-store.ts";

/** The signed-in user: `id` keys the store, `externalUserId` is the `id_user` the service sees. */
export interface AuthenticatedUser {
  id: string;
  externalUserId: string;
}

export interface ServiceHandlerConfig {
  baseUrl: string;
  assistantId: string;
  /** The assistant key, from server-only env. */
  apiKey: string;
  /** The host app's origin (or origins); any request but GET from another `Origin` is refused with 403. */
  allowedOrigin: string | readonly string[];
  /**
   * The signed-in user of a request, or null (401). Check the session here, not in a proxy. A
   * HttpProblem it throws is answered with its status (e.g. 503 when sessions cannot be checked
   * right now); anything else it throws is a 500.
   */
  authenticate(request: Request): Promise<AuthenticatedUser | null>;
  /**
   * Where conversations live: one store for every request, or a function that opens one per
   * request after `authenticate` (e.g. a Supabase client carrying the user's access token, so
   * the database's row-level security applies to every read and write).
   */
  store: ServiceStore | OpenServiceStore;
  /** Where the handler is mounted. Default `/api/cited`. */
  mountPath?: string;
  /** Largest accepted request body. Default 65,536 bytes. */
  maxBodyBytes?: number;
  fetch?: typeof fetch;
  maxRetries?: number;
  timeoutMs?: number;
  backoff?: BackoffOptions;
  /** Failures the browser only sees as a generic problem; log them. Default: `console.error`. */
  onError?(error: unknown, context: { requestId: string }): void;
}

/** Opens the store a request's reads and writes go to, once per request, after `authenticate`. */
export type OpenServiceStore = (context: {
  request: Request;
  user: AuthenticatedUser;
}) => ServiceStore | Promise<ServiceStore>;

type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/**
 * A Fetch API handler; `GET`, `POST`, `PATCH` and `DELETE` are the same function, for
 * `export const { GET, POST, PATCH, DELETE } = …` in a Next.js route.
 */
export type ServiceHandler = ((request: Request) => Promise<Response>) &
  Record<HttpMethod, (request: Request) => Promise<Response>>;

interface RouteContext {
  request: Request;
  user: AuthenticatedUser;
  store: ServiceStore;
  params: string[];
  requestId: string;
}

type RouteHandler = (context: RouteContext) => Promise<Response>;

interface Route {
  pattern: readonly string[];
  method: HttpMethod;
  run: RouteHandler;
}

const userSchema = z.object({ id: z.string().min(1), externalUserId: idUserSchema });

/**
 * Creates the host's route handler. Routes under `mountPath`:
 * - `POST /conversations` `{ title? }` → the conversation; `GET /conversations` → `{ conversations }`
 * - `GET /conversations/{id}` → the conversation; `PATCH` `{ title }` → the renamed conversation;
 *   `DELETE` → 204, its messages and their references gone
 * - `GET /conversations/{id}/messages` → `{ messages }`
 * - `POST /conversations/{id}/ask` `{ message, detail_level?, technicality_level? }` → NDJSON of
 *   `{"type":"answer","answer"}` … `{"type":"saved","messageId"}`
 * - `POST /rag` `{ query, max_results?, datasource_ids? }` → `{ results }`
 * - `GET /pdf/{messageId}/{referenceId}[?page=n]` → `application/pdf` with `X-Pdf-Slice-Start`
 *   and `X-Pdf-Page-Count`, after checking that the user owns the reference
 * - `GET /image/{messageId}/{referenceId}` → the uploaded image an `image` reference quotes
 *   (PNG, JPEG, TIFF or WebP, as uploaded), after the same ownership check
 * - `GET /passage-image/{token}` → the image of a passage `rag` found for the user (`metadata.image.token`)
 * - `GET /passage-pdf/{token}?page=n` → the same for a PDF passage `rag` found for the user
 *   (`metadata.pdf.token`); the service checks the token is the user's
 *
 * Every request but GET must come from `allowedOrigin` (403), every request needs a user (401),
 * bodies are limited to `maxBodyBytes` (413) and validated (422). Errors are
 * `application/problem+json` with a `request_id`, never a stack. Refuses to run in a browser.
 *
 * The settings are read at the first request, not here: a module that creates the handler from
 * `process.env` builds without the environment. A missing or malformed setting makes every request a 500
 * and is logged through `onError`, naming the setting.
 *
 * @example
 * // app/api/cited/[...path]/route.ts
 * export const { GET, POST, PATCH, DELETE } = createServiceHandler({
 *   baseUrl: env.CITED_BASE_URL, assistantId: env.CITED_ASSISTANT_ID, apiKey: env.CITED_API_KEY,
 *   allowedOrigin: env.CITED_APP_ORIGIN, authenticate, store: createSqlServiceStore({ client: pool }),
 * });
 *
 * @example
 * // On Supabase: a store per request that runs as the signed-in user, so row-level security applies.
 * export const { GET, POST, PATCH, DELETE } = createServiceHandler({
 *   ...config,
 *   authenticate: createSupabaseAuthenticate({ supabaseUrl }),
 *   store: ({ request, user }) => {
 *     // authenticate has just accepted this very token, so it is there.
 *     const accessToken = bearerToken(request);
 *     if (accessToken === null) throw new Error("a request reached the store without its bearer token");
 *     return createSupabaseServiceStore({
 *       client: createSupabaseUserClient({ supabaseUrl, supabaseKey, accessToken }),
 *       userId: user.id,
 *     });
 *   },
 * });
 */
export function createServiceHandler(config: ServiceHandlerConfig): ServiceHandler {
  assertServerRuntime("createServiceHandler");
  const onError =
    config.onError ??
    ((error: unknown, context: { requestId: string }) =>
      console.error("cited handler", context.requestId, error));
  // Nothing reads the settings before the first request, so `next build` passes without the environment.
  let respond: ((request: Request, requestId: string) => Promise<Response>) | null = null;

  async function handle(request: Request): Promise<Response> {
    const requestId = newRequestId();
    try {
      if (respond === null) {
        checkHandlerSettings({ ...config });
        respond = routeRequests(config, onError);
      }
      return await respond(request, requestId);
    } catch (error) {
      if (error instanceof HttpProblem) {
        if (error.status >= 500) onError(error.cause ?? error, { requestId });
        return error.toResponse(requestId);
      }
      // A browser that left before the answer started has nobody to read a problem; do not log it.
      if (!request.signal.aborted) onError(error, { requestId });
      return internalProblem().toResponse(requestId);
    }
  }

  return Object.assign(handle, { GET: handle, POST: handle, PATCH: handle, DELETE: handle });
}

function routeRequests(
  config: ServiceHandlerConfig,
  onError: (error: unknown, context: { requestId: string }) => void,
): (request: Request, requestId: string) => Promise<Response> {
  const mountPath = (config.mountPath ?? "/api/cited").replace(/\/+$/, "");
  const maxBodyBytes = config.maxBodyBytes ?? 65_536;
  const allowedOrigins = new Set([config.allowedOrigin].flat().map((origin) => origin.replace(/\/+$/, "")));
  const openStore: OpenServiceStore =
    typeof config.store === "function" ? config.store : constantStore(config.store);
  const client: ServiceClient = createServiceClient({
    baseUrl: config.baseUrl,
    assistantId: config.assistantId,
    apiKey: config.apiKey,
    ...(config.fetch ? { fetch: config.fetch } : {}),
    ...(config.maxRetries === undefined ? {} : { maxRetries: config.maxRetries }),
    ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
    ...(config.backoff ? { backoff: config.backoff } : {}),
  });
  const body = (request: Request) => readJsonBody(request, { maxBytes: maxBodyBytes, allowEmpty: true });

  const routes: Route[] = [
    {
      pattern: ["conversations"],
      method: "GET",
      run: async ({ user, store }) => json({ conversations: await store.listConversations(user.id) }),
    },
    {
      pattern: ["conversations"],
      method: "POST",
      run: async ({ request, user, store }) => {
        const { title } = parseInput(conversationCreateSchema, await body(request));
        return json(await store.createConversation(user.id, title), 201);
      },
    },
    {
      pattern: ["conversations", ":id"],
      method: "GET",
      run: async ({ user, store, params: [id] }) =>
        json(orNoConversation(await store.getConversation(user.id, id!))),
    },
    {
      pattern: ["conversations", ":id"],
      method: "PATCH",
      run: async ({ request, user, store, params: [id] }) => {
        const { title } = parseInput(conversationRenameSchema, await body(request));
        return json(orNoConversation(await store.renameConversation(user.id, id!, title)));
      },
    },
    {
      pattern: ["conversations", ":id"],
      method: "DELETE",
      run: async ({ user, store, params: [id] }) => {
        if (!(await store.deleteConversation(user.id, id!))) throw noConversation();
        return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
      },
    },
    {
      pattern: ["conversations", ":id", "messages"],
      method: "GET",
      run: async ({ user, store, params: [id] }) =>
        json({ messages: orNoConversation(await store.listMessages(user.id, id!)) }),
    },
    {
      pattern: ["conversations", ":id", "ask"],
      method: "POST",
      run: (context) => ask(context),
    },
    {
      pattern: ["rag"],
      method: "POST",
      run: async ({ request, user, requestId }) => {
        const input = parseInput(hostRagRequestSchema, await body(request));
        try {
          const results = await client.rag(
            { ...input, id_user: user.externalUserId },
            { signal: request.signal, requestId },
          );
          return json(results);
        } catch (error) {
          throw problemFromServiceError(error, [422, 429]) ?? error;
        }
      },
    },
    {
      pattern: ["pdf", ":messageId", ":referenceId"],
      method: "GET",
      run: ({ request, user, store, params: [messageId, referenceId], requestId }) =>
        servePdf({
          store,
          client,
          user,
          messageId: messageId!,
          referenceId: referenceId!,
          page: new URL(request.url).searchParams.get("page"),
          signal: request.signal,
          requestId,
        }),
    },
    {
      pattern: ["image", ":messageId", ":referenceId"],
      method: "GET",
      run: ({ request, user, store, params: [messageId, referenceId], requestId }) =>
        serveImage({
          store,
          client,
          user,
          messageId: messageId!,
          referenceId: referenceId!,
          signal: request.signal,
          requestId,
        }),
    },
    {
      pattern: ["passage-image", ":token"],
      method: "GET",
      run: ({ request, user, params: [token], requestId }) =>
        servePassageImage({ client, user, token: token!, signal: request.signal, requestId }),
    },
    {
      pattern: ["passage-pdf", ":token"],
      method: "GET",
      run: ({ request, user, params: [token], requestId }) =>
        servePassagePdf({
          client,
          user,
          token: token!,
          page: new URL(request.url).searchParams.get("page"),
          signal: request.signal,
          requestId,
        }),
    },
  ];

  async function ask({
    request,
    user,
    store,
    params: [conversationId],
    requestId,
  }: RouteContext): Promise<Response> {
    const input = parseInput(hostAskRequestSchema, await body(request));
    const id = conversationId!;
    // The question is kept even if the service then fails, so the conversation shows what was asked.
    if (!(await store.addUserMessage(user.id, id, input.message))) throw noConversation();
    const stop = new AbortController();
    const signal = AbortSignal.any([request.signal, stop.signal]);
    let upstream: ReadableStream<Uint8Array>;
    try {
      ({ body: upstream } = await client.ask(
        id,
        { ...input, id_user: user.externalUserId },
        { signal, requestId },
      ));
    } catch (error) {
      throw problemFromServiceError(error, [422, 429]) ?? error;
    }
    const stream = relayAnswers({
      upstream,
      signal,
      stop: () => stop.abort(),
      requestId,
      onError: (error) => onError(error, { requestId }),
      async save(answer, partial) {
        const messageId = answer.messageId ?? newMessageId();
        const saved = await store.saveAnswer(user.id, id, messageId, { ...answer, messageId }, { partial });
        if (!saved) throw new Error(`conversation ${id} was gone when its answer ${messageId} was saved`);
        return saved.id;
      },
    });
    return new Response(stream, {
      headers: {
        "Content-Type": "application/x-ndjson; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Accel-Buffering": "no",
        "X-Request-ID": requestId,
      },
    });
  }

  return async (request, requestId) => {
    const { route, params } = matchRoute(routes, request, mountPath);
    assertSameOrigin(request, allowedOrigins);
    const user = await config.authenticate(request);
    if (user === null) throw new HttpProblem(401, "unauthenticated", "Sign in first.");
    const checkedUser = userSchema.safeParse(user);
    if (!checkedUser.success) throw new Error("authenticate returned a user without id or externalUserId");
    const store = await openStore({ request, user: checkedUser.data });
    const response = await route.run({ request, user: checkedUser.data, store, params, requestId });
    if (!response.headers.has("X-Request-ID")) response.headers.set("X-Request-ID", requestId);
    return response;
  };
}

function matchRoute(
  routes: readonly Route[],
  request: Request,
  mountPath: string,
): { route: Route; params: string[] } {
  const path = new URL(request.url).pathname;
  const rest =
    path === mountPath ? "" : path.startsWith(`${mountPath}/`) ? path.slice(mountPath.length) : null;
  if (rest === null) throw new HttpProblem(404, "not_found", "No such route.");
  let segments: string[];
  try {
    segments = rest
      .split("/")
      .filter((segment) => segment !== "")
      .map(decodeURIComponent);
  } catch {
    throw new HttpProblem(404, "not_found", "No such route.");
  }
  const matching = routes
    .map((route) => ({ route, params: matchPattern(route.pattern, segments) }))
    .filter((match): match is { route: Route; params: string[] } => match.params !== null);
  const match = matching.find((candidate) => candidate.route.method === request.method);
  if (match) return match;
  if (matching.length === 0) throw new HttpProblem(404, "not_found", "No such route.");
  const allow = matching.map((candidate) => candidate.route.method).join(", ");
  throw new HttpProblem(405, "method_not_allowed", `Use ${allow}.`, { headers: { Allow: allow } });
}

/** No id the store issues holds a control character; a NUL would even make PostgreSQL fail the query. */
const controlCharacter = /\p{Cc}/u;

function matchPattern(pattern: readonly string[], segments: readonly string[]): string[] | null {
  if (pattern.length !== segments.length) return null;
  const params: string[] = [];
  for (const [index, part] of pattern.entries()) {
    const segment = segments[index]!;
    if (part.startsWith(":")) {
      if (controlCharacter.test(segment)) return null;
      params.push(segment);
    } else if (part !== segment) return null;
  }
  return params;
}

function constantStore(store: ServiceStore): OpenServiceStore {
  return () => store;
}

function noConversation(): HttpProblem {
  return new HttpProblem(404, "not_found", "No such conversation.");
}

/** The store's answer for a conversation of the user; its null (not the user's, or unknown) is a 404. */
function orNoConversation<Value>(value: Value | null): Value {
  if (value === null) throw noConversation();
  return value;
}

function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}
