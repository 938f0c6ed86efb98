/**
 * What every console route handler does around its own work: the operator check (404 for anyone
 * else), the origin check for changes, zod on what the browser sends, and the service's failures
 * passed on as problem details that keep the service's request id.
 */
import "server-only";
import { unstable_rethrow } from "next/navigation";
import { z } from "zod";
import { allowedOrigins, serverEnvironment } from "@/lib/env";
import {
  assertSameOrigin,
  CitedApiError,
  HttpProblem,
  newRequestId,
  parseInput,
  readJsonBody,
} from "@/sdk/core/index.ts";
import { assistantIdSchema } from "@/sdk/core/wire.ts";
import { problemFromServiceError } from "@/sdk/server/index.ts";
import { type ConsoleAdminClient, consoleAdminClient } from "./admin-client.ts";
import { requireOperator } from "./operator.ts";

/** Service statuses the operator should see as they are: they say what to fix. */
const passedThrough = [400, 404, 409, 413, 422, 429] as const;

export interface ConsoleRouteContext<Params> {
  params: Params;
  admin: ConsoleAdminClient;
}

type Handler<Params> = (request: Request, context: ConsoleRouteContext<Params>) => Promise<Response>;

/**
 * A console route handler: `params` are validated with `paramsSchema` (a malformed id is a 404, as
 * an unknown one is), and `handle` runs only for an operator.
 */
export function consoleRoute<Schema extends z.ZodType<Record<string, string | string[]>>>(
  paramsSchema: Schema,
  handle: Handler<z.infer<Schema>>,
) {
  return async (
    request: Request,
    context: { params?: Promise<Record<string, string | string[]> | undefined> },
  ) => {
    const requestId = newRequestId();
    try {
      // Inside the try, so an Auth outage is a problem with a request id, not Next.js's HTML 500.
      await requireOperator();
      assertSameOrigin(request, allowedOrigins(serverEnvironment()));
      // A route without dynamic segments gets no params at all.
      const params = paramsSchema.safeParse((await context.params) ?? {});
      if (!params.success) throw new HttpProblem(404, "not_found", "There is nothing here.");
      return await handle(request, { params: params.data, admin: consoleAdminClient() });
    } catch (error) {
      // Next.js's 404 for a non-operator is thrown, and must reach Next.js as it is.
      unstable_rethrow(error);
      if (request.signal.aborted) return new Response(null, { status: 499 });
      return problemResponse(error, requestId);
    }
  };
}

function problemResponse(error: unknown, requestId: string): Response {
  if (error instanceof HttpProblem) return error.toResponse(requestId);
  if (CitedApiError.isInstance(error)) {
    const problem = problemFromServiceError(error, passedThrough);
    if (problem) {
      if (problem.status >= 500) console.error(`console: ${requestId}`, error);
      return problem.toResponse(error.requestId ?? requestId);
    }
  }
  console.error(`console: ${requestId}`, error);
  return new HttpProblem(500, "internal_error", "The console failed; quote the request id.").toResponse(
    requestId,
  );
}

/** The largest JSON body a console route reads (names and scopes; uploads are multipart). */
const maxJsonBytes = 64 * 1024;

/** Reads a JSON body and validates it: unreadable is a 400, too large a 413, out of bounds a 422. */
export async function readJson<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.output<Schema>> {
  return parseInput(schema, await readJsonBody(request, { maxBytes: maxJsonBytes }));
}

export const assistantParams = z.object({ assistant: assistantIdSchema });
export const noParams = z.object({});
