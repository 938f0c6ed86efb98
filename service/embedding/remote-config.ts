/** Which model servers embed and rerank, from the environment: absent settings keep the embedded models. */
import { z } from "zod";

// `VAR=` (as compose files leave them) means unset, not an empty model name.
const blankIsUnset = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;
const optional = <Schema extends z.ZodType>(schema: Schema) => z.preprocess(blankIsUnset, schema.optional());
const baseUrl = (name: string) =>
  optional(
    z
      .url({ protocol: /^https?$/, error: `${name} must be an http(s) URL, e.g. http://127.0.0.1:8080/v1` })
      .transform((url) => url.replace(/\/+$/, "")),
  );

export interface RemoteEmbeddingsConfig {
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
}

/** Cohere-style servers need a model name; a TEI server serves the one it was started with. */
export type RemoteRerankConfig = { baseUrl: string; apiKey: string | undefined } & (
  | { protocol: "cohere"; model: string }
  | { protocol: "tei"; model: string | undefined }
);

export interface RemoteModelConfig {
  embeddings: RemoteEmbeddingsConfig | null;
  rerank: RemoteRerankConfig | null;
}

export const remoteModelEnvironmentSchema = z
  .object({
    CKA_EMBEDDINGS_BASE_URL: baseUrl("CKA_EMBEDDINGS_BASE_URL"),
    CKA_EMBEDDINGS_MODEL: optional(z.string().trim()),
    CKA_EMBEDDINGS_API_KEY: optional(z.string()),
    CKA_RERANK_BASE_URL: baseUrl("CKA_RERANK_BASE_URL"),
    CKA_RERANK_MODEL: optional(z.string().trim()),
    CKA_RERANK_API_KEY: optional(z.string()),
    CKA_RERANK_PROTOCOL: optional(
      z.enum(["cohere", "tei"], { error: "CKA_RERANK_PROTOCOL must be cohere or tei" }),
    ),
  })
  .superRefine((values, context) => {
    const problem = (message: string) => context.addIssue({ code: "custom", message });
    if (values.CKA_EMBEDDINGS_BASE_URL && !values.CKA_EMBEDDINGS_MODEL)
      problem(
        "CKA_EMBEDDINGS_BASE_URL is set but CKA_EMBEDDINGS_MODEL is not: name the model the server embeds with",
      );
    if (!values.CKA_EMBEDDINGS_BASE_URL && values.CKA_EMBEDDINGS_MODEL)
      problem(
        "CKA_EMBEDDINGS_MODEL is set but CKA_EMBEDDINGS_BASE_URL is not: give the server's base URL, or unset the model to embed in-process",
      );
    const protocol = values.CKA_RERANK_PROTOCOL ?? "cohere";
    if (values.CKA_RERANK_BASE_URL && protocol === "cohere" && !values.CKA_RERANK_MODEL)
      problem(
        "CKA_RERANK_BASE_URL is set but CKA_RERANK_MODEL is not: name the reranker model, or set CKA_RERANK_PROTOCOL=tei for a TEI server",
      );
    if (!values.CKA_RERANK_BASE_URL && (values.CKA_RERANK_MODEL || values.CKA_RERANK_PROTOCOL))
      problem(
        "CKA_RERANK_MODEL or CKA_RERANK_PROTOCOL is set but CKA_RERANK_BASE_URL is not: give the server's base URL, or unset them to rerank in-process",
      );
  })
  .transform((values): RemoteModelConfig => {
    const embeddings =
      values.CKA_EMBEDDINGS_BASE_URL && values.CKA_EMBEDDINGS_MODEL
        ? {
            baseUrl: values.CKA_EMBEDDINGS_BASE_URL,
            model: values.CKA_EMBEDDINGS_MODEL,
            apiKey: values.CKA_EMBEDDINGS_API_KEY,
          }
        : null;
    const rerankServer = values.CKA_RERANK_BASE_URL
      ? { baseUrl: values.CKA_RERANK_BASE_URL, apiKey: values.CKA_RERANK_API_KEY }
      : null;
    let rerank: RemoteRerankConfig | null = null;
    if (rerankServer && values.CKA_RERANK_PROTOCOL === "tei")
      rerank = { ...rerankServer, protocol: "tei", model: values.CKA_RERANK_MODEL };
    else if (rerankServer && values.CKA_RERANK_MODEL)
      rerank = { ...rerankServer, protocol: "cohere", model: values.CKA_RERANK_MODEL };
    return { embeddings, rerank };
  });

/** The model servers the environment names; throws one message listing every setting to fix. */
export function remoteModelConfig(environment: NodeJS.ProcessEnv): RemoteModelConfig {
  const parsed = remoteModelEnvironmentSchema.safeParse(environment);
  if (!parsed.success)
    // Every message names its variable: the issue's path would only repeat it.
    throw new Error(`Model server settings: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
  return parsed.data;
}
