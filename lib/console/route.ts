/**
 * What every console route handler does around its own work: the operator check (404 for anyone
 * else), the origin check for changes, zod on what the browser sends, and the service's failures
 * passed on as problem details that keep the service's request id.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { unstable_rethrow } from "next/navigation";
import { z } from "zod";
import { allowedOrigins, serverEnvironment } from "@/lib/env";
import { assistantIdSchema, CitedApiError } from "@/sdk/core/index.ts";
import { HandlerProblem, problemFromServiceError } from "@/sdk/server/index.ts";
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
    const requestId = `req_app_${randomUUID().replaceAll("-", "")}`;
    try {
      // Inside the try, so an Auth outage is a problem with a request id, not Next.js's HTML 500.
      await requireOperator();
      checkOrigin(request);
      // A route without dynamic segments gets no params at all.
      const params = paramsSchema.safeParse((await context.params) ?? {});
      if (!params.success) throw new HandlerProblem(404, "not_found", "There is nothing here.");
      return await handle(request, { params: params.data, admin: consoleAdminClient() });
    } catch (error) {
      // Next.js's 404 for a non-operator is thrown, and must reach Next.js as it is.
      unstable_rethrow(error);
      if (request.signal.aborted) return new Response(null, { status: 499 });
      return problemResponse(error, requestId);
    }
  };
}

function checkOrigin(request: Request): void {
  if (request.method === "GET" || request.method === "HEAD") return;
  const origin = request.headers.get("Origin");
  if (origin === null || !allowedOrigins(serverEnvironment()).includes(origin)) {
    throw new HandlerProblem(403, "forbidden", "This request must come from the app's own origin.");
  }
}

function problemResponse(error: unknown, requestId: string): Response {
  if (error instanceof HandlerProblem) return error.toResponse(requestId);
  if (CitedApiError.isInstance(error)) {
    const problem = problemFromServiceError(error, passedThrough);
    if (problem) {
      if (problem.status >= 500) console.error(`console: ${requestId}`, error);
      return problem.toResponse(error.requestId ?? requestId);
    }
  }
  console.error(`console: ${requestId}`, error);
  return new HandlerProblem(500, "internal_error", "The console failed; quote the request id.").toResponse(
    requestId,
  );
}

/** Reads a JSON body and validates it; a body that is not JSON is a 400, one out of bounds a 422. */
export async function readJson<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.infer<Schema>> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new HandlerProblem(400, "invalid_request", "Send a JSON body.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({
      path: issue.path.join("."),
      message: issue.message,
    }));
    throw new HandlerProblem(422, "invalid_input", errors.map((error) => error.message).join("; "), {
      errors,
    });
  }
  return parsed.data;
}

export const assistantParams = z.object({ assistant: assistantIdSchema });
export const noParams = z.object({});
