/** The one error a model-server client (embeddings, rerank) throws, whatever went wrong on the way. */

export type ModelServerFailure = "timeout" | "http" | "connection" | "protocol";

/** The model server timed out, refused the request, was unreachable or answered something unreadable. */
export class ModelServerError extends Error {
  readonly failure: ModelServerFailure;
  readonly status: number | undefined;
  constructor(
    failure: ModelServerFailure,
    message: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "ModelServerError";
    this.failure = failure;
    this.status = options.status;
  }
}
