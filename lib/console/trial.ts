/**
 * The console's Try tab: an operator chats with one assistant and searches it, as its users would. The
 * browser reaches the service through the console's own route with a key the service makes to expire
 * within the hour (never the admin token, never the app's key), and the operator's test conversations
 * are kept under an id of their own in the app's embedded store, apart from every user's conversations.
 */
import "server-only";
import {
  type AuthenticatedUser,
  createServiceClient,
  createServiceHandler,
  type ServiceClient,
  type ServiceHandler,
  type ServiceStore,
} from "@/sdk/server/index.ts";
import { allowedOrigins, serverEnvironment } from "../env.ts";
import { type SearchOutcome, searchPassages } from "../search.ts";
import { appStore, lazyAppStore } from "../store.ts";
import { consoleAdminClient } from "./admin-client.ts";
import { consoleSettings, operatorIdKey } from "./env.ts";
import { consoleOperator, type Operator } from "./operator.ts";

/** How long a trial key lives; the service refuses it after that. */
export const trialKeyLifetimeSeconds = 60 * 60;
/** A key this close to its end is replaced, so no request starts with a key about to lapse. */
const renewWithinMs = 10 * 60_000;

/** Where the Try tab's route handler is mounted for an assistant. */
export function trialMountPath(assistantId: string): string {
  return `/console/api/assistants/${assistantId}/try`;
}

/** Where the Try tab's pages are for an assistant. */
export function trialChatPath(assistantId: string): string {
  return `/console/assistants/${assistantId}/try`;
}

/**
 * The store's user id of an operator's test conversations with one assistant. A ":" is in no user name
 * of the development sign-in nor in a Supabase user id, so no user's conversations share it.
 */
export function trialUserId(assistantId: string, operatorId: string): string {
  return `console-try:${assistantId}:${operatorIdKey(operatorId)}`;
}

/** The operator's test conversations with the assistant, most recently active first. */
export async function trialStore(): Promise<ServiceStore> {
  return appStore();
}

interface TrialKey {
  id: string;
  key: string;
  expiresAt: number;
}

interface HeldKey {
  made: Promise<TrialKey>;
  /** Known once the key is made. */
  expiresAt: number | null;
}

interface TrialState {
  /** Per assistant: its trial key. */
  held: Map<string, HeldKey>;
  /** Per assistant: the handler and client made with its key. */
  handlers: Map<string, { keyId: string; handler: ServiceHandler; client: ServiceClient }>;
  /** Keys the service has refused. */
  refusedKeys: Set<string>;
}

// On globalThis: Next.js builds the route handler and the pages into separate bundles, each with its own
// copy of this module, and one key must serve both (two copies made two keys within seconds).
const holder = globalThis as typeof globalThis & { citedTrialState?: TrialState };
holder.citedTrialState ??= { held: new Map(), handlers: new Map(), refusedKeys: new Set() };
const { held, handlers, refusedKeys } = holder.citedTrialState;

/** The assistant's trial key: the one held while it has more than ten minutes left, else a new one. */
function trialKey(assistantId: string): Promise<TrialKey> {
  const current = held.get(assistantId);
  if (current && (current.expiresAt === null || current.expiresAt - Date.now() > renewWithinMs)) {
    return current.made;
  }
  const name = `Console test chat (expires after ${trialKeyLifetimeSeconds / 60} min)`;
  const made = consoleAdminClient()
    .createKey(assistantId, ["ask", "rag"], name, trialKeyLifetimeSeconds)
    .then((created) => {
      if (created.expires_at === null)
        throw new Error(`the service made trial key ${created.id} without an end`);
      return { id: created.id, key: created.key, expiresAt: Date.parse(created.expires_at) };
    });
  const entry: HeldKey = { made, expiresAt: null };
  held.set(assistantId, entry);
  made.then(
    (key) => {
      entry.expiresAt = key.expiresAt;
    },
    () => forgetKey(assistantId, entry),
  );
  return made;
}

function forgetKey(assistantId: string, entry: HeldKey | undefined): void {
  if (entry !== undefined && held.get(assistantId) === entry) held.delete(assistantId);
}

/** The signed-in operator as the trial handler's user; anyone else is not let in (the route is a 404 for them). */
async function trialUser(assistantId: string): Promise<AuthenticatedUser | null> {
  const operator: Operator | null = await consoleOperator();
  if (operator === null) return null;
  const id = trialUserId(assistantId, operator.id);
  return { id, externalUserId: id };
}

/**
 * The global fetch, noting a key the service refuses (revoked in the Keys tab, or ended early by a clock ahead
 * of ours): the key is forgotten, so the next request, of the chat or of the search, makes a new one.
 */
function noticingRefusal(assistantId: string, keyId: string, entry: HeldKey | undefined): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 401) {
      const problem = (await response
        .clone()
        .json()
        .catch(() => null)) as { code?: unknown } | null;
      if (problem?.code === "invalid_key") {
        refusedKeys.add(keyId);
        forgetKey(assistantId, entry);
      }
    }
    return response;
  };
}

async function trialTools(assistantId: string) {
  const settings = consoleSettings();
  if (settings === null) throw new Error("the Try tab was reached without a console");
  const key = await trialKey(assistantId);
  const existing = handlers.get(assistantId);
  if (existing?.keyId === key.id) return existing;
  const service = {
    baseUrl: settings.adminUrl,
    assistantId,
    apiKey: key.key,
    fetch: noticingRefusal(assistantId, key.id, held.get(assistantId)),
  };
  const made = {
    keyId: key.id,
    client: createServiceClient(service),
    handler: createServiceHandler({
      ...service,
      allowedOrigin: allowedOrigins(serverEnvironment()),
      mountPath: trialMountPath(assistantId),
      store: lazyAppStore,
      authenticate: () => trialUser(assistantId),
      onError: (error, { requestId }) => console.error(`console try: ${requestId}`, error),
    }),
  };
  handlers.set(assistantId, made);
  return made;
}

/**
 * Answers a request of the Try tab's chat with the assistant's trial key. A key the service refuses
 * (revoked in the Keys tab) is forgotten and the request is made once more with a new one.
 */
export async function handleTrialRequest(assistantId: string, request: Request): Promise<Response> {
  const again = request.clone();
  const tools = await trialTools(assistantId);
  const response = await tools.handler(request);
  if (response.status !== 502 || !refusedKeys.has(tools.keyId)) return response;
  await response.body?.cancel();
  return (await trialTools(assistantId)).handler(again);
}

/** A service client of the assistant with a live trial key (for the list of its sources). */
export async function trialClient(assistantId: string): Promise<ServiceClient> {
  return (await trialTools(assistantId)).client;
}

/** The Try tab's search: once more with a new key when the service refused the one held. */
export async function trialSearch(
  assistantId: string,
  query: string,
  datasource: string,
  userId: string,
): Promise<SearchOutcome> {
  const tools = await trialTools(assistantId);
  const outcome = await searchPassages(tools.client, query, datasource, userId);
  if (outcome.kind !== "error" || !refusedKeys.has(tools.keyId)) return outcome;
  return searchPassages((await trialTools(assistantId)).client, query, datasource, userId);
}
