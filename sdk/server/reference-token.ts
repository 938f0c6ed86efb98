/** A cited reference's short-lived token (a PDF's or an image's) as the handler uses it: renewed once when it expired. */
import { AuthenticationError, CitedApiError, ConflictError, HttpProblem } from "../core/index.ts";
import type { ServiceClient } from "./service-client.ts";
import { problemFromServiceError } from "./service-problem.ts";
import type { ServiceStore, StoredReference } from "./service-store.ts";

export interface ReferenceTokenContext {
  store: ServiceStore;
  client: ServiceClient;
  user: { id: string; externalUserId: string };
  messageId: string;
  referenceId: string;
  signal: AbortSignal;
  requestId: string;
}

/** Service failures the browser can act on: gone, renewed too often, bad page, slow down. */
const passThrough = [404, 409, 422, 429] as const;

export function mapped(error: unknown): unknown {
  return problemFromServiceError(error, passThrough) ?? error;
}

/**
 * What the browser hears when the service refuses a token `rag` gave a search result (`what`: "page",
 * "image"): another user's is 403, an expired one 409 (such tokens are not renewed; search again).
 */
export function searchTokenFailure(error: unknown, what: string): unknown {
  if (CitedApiError.isInstance(error) && error.code === "token_expired") {
    return new HttpProblem(409, "token_expired", `This result's ${what} link has expired; search again.`);
  }
  if (CitedApiError.isInstance(error) && (error.code === "forbidden" || error.code === "invalid_token")) {
    return new HttpProblem(403, "forbidden", `This ${what} was not found for you.`);
  }
  return mapped(error);
}

async function renew(
  context: ReferenceTokenContext,
  found: StoredReference,
  expired: string,
): Promise<string> {
  const { store, user, messageId, referenceId } = context;
  try {
    const renewed = await context.client.refresh(
      {
        token: expired,
        id_reference: referenceId,
        id_user: user.externalUserId,
        external_session: found.conversationId,
      },
      { signal: context.signal, requestId: context.requestId },
    );
    await store.replaceReferenceToken(user.id, messageId, referenceId, renewed);
    return renewed.token;
  } catch (error) {
    if (ConflictError.isInstance(error)) {
      const current = await store.findReference(user.id, messageId, referenceId);
      if (current?.pdf && current.pdf.token !== expired) return current.pdf.token;
    }
    throw mapped(error);
  }
}

/**
 * `call` with the reference's token; when the service says it expired, the token is renewed once (the new
 * one is stored) and `call` made once more. A refresh that lost a race to a parallel request uses the token
 * that request stored.
 */
export async function withRenewedToken<T>(
  context: ReferenceTokenContext,
  found: StoredReference,
  token: string,
  call: (token: string) => Promise<T>,
): Promise<T> {
  try {
    return await call(token);
  } catch (error) {
    if (!(AuthenticationError.isInstance(error) && error.code === "token_expired")) throw mapped(error);
    const renewed = await renew(context, found, token);
    return call(renewed).catch((retryError: unknown) => {
      throw mapped(retryError);
    });
  }
}
