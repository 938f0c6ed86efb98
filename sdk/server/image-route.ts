/**
 * `GET /image/{messageId}/{referenceId}`: the uploaded image an `image` reference quotes, only for the user who
 * owns the answer. `GET /passage-image/{token}`: the image of a passage `rag` found for the user.
 */
import { HttpProblem } from "../core/index.ts";
import { type ReferenceTokenContext, searchTokenFailure, withRenewedToken } from "./reference-token.ts";
import type { ServedImage, ServiceClient } from "./service-client.ts";

/**
 * Serves a reference's image. Ownership is checked in the store before anything reaches the service (403
 * for a reference the user does not own or that does not exist); an expired token is renewed once, as for
 * PDF slices.
 *
 * @example
 * return serveImage({ store, client, user, messageId, referenceId, signal, requestId });
 */
export async function serveImage(context: ReferenceTokenContext): Promise<Response> {
  const { store, user, messageId, referenceId } = context;
  const found = await store.findReference(user.id, messageId, referenceId);
  if (!found)
    throw new HttpProblem(403, "forbidden", "This reference is not one of your answers' references.");
  if (found.reference.kind !== "image" || !found.pdf) {
    throw new HttpProblem(404, "not_found", "This reference has no uploaded image.");
  }
  const image = await withRenewedToken(context, found, found.pdf.token, (token) =>
    context.client.image(token, user.externalUserId, {
      signal: context.signal,
      requestId: context.requestId,
    }),
  );
  return imageResponse(image, context.requestId);
}

export interface PassageImageContext {
  client: ServiceClient;
  user: { externalUserId: string };
  /** The token `rag` gave the passage for this user (`metadata.image.token`). */
  token: string;
  signal: AbortSignal;
  requestId: string;
}

/**
 * Serves the image of a passage `rag` found. As for a passage's PDF page, the service checks that the token
 * is this user's (403 otherwise), and an expired one is a 409: it is not renewed, searching again gives a new one.
 */
export async function servePassageImage(context: PassageImageContext): Promise<Response> {
  try {
    const image = await context.client.image(context.token, context.user.externalUserId, {
      signal: context.signal,
      requestId: context.requestId,
    });
    return imageResponse(image, context.requestId);
  } catch (error) {
    throw searchTokenFailure(error, "image");
  }
}

function imageResponse(image: ServedImage, requestId: string): Response {
  return new Response(image.bytes, {
    headers: {
      "Content-Type": image.contentType,
      "Cache-Control": "private, no-store",
      "X-Request-ID": requestId,
    },
  });
}
