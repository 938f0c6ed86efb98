/** Which model servers the environment names, and the messages for settings that cannot work. */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { temporaryDirectory } from "../testing/temporary-directory.ts";
import { remoteModelConfig } from "./remote-config.ts";

/** An environment with only `values` set (and the NODE_ENV every process has). */
const environment = (values: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  NODE_ENV: "test",
  ...values,
});

describe("the model server settings", () => {
  it("name no server when none is set, keeping the embedded models", () => {
    expect(remoteModelConfig(environment())).toEqual({ embeddings: null, rerank: null });
  });

  it("treat blank values as unset", () => {
    const config = remoteModelConfig(
      environment({ CKA_EMBEDDINGS_BASE_URL: "", CKA_EMBEDDINGS_MODEL: " ", CKA_RERANK_PROTOCOL: "" }),
    );
    expect(config).toEqual({ embeddings: null, rerank: null });
  });

  it("name an embeddings server by base URL (without a trailing slash), model and key", () => {
    const config = remoteModelConfig(
      environment({
        CKA_EMBEDDINGS_BASE_URL: "http://127.0.0.1:8080/v1/",
        CKA_EMBEDDINGS_MODEL: "BAAI/bge-small-en-v1.5",
        CKA_EMBEDDINGS_API_KEY: "sk-embed",
      }),
    );
    expect(config.embeddings).toEqual({
      baseUrl: "http://127.0.0.1:8080/v1",
      model: "BAAI/bge-small-en-v1.5",
      apiKey: "sk-embed",
    });
    expect(config.rerank).toBeNull();
  });

  it("name a Cohere-style rerank server by default", () => {
    const config = remoteModelConfig(
      environment({ CKA_RERANK_BASE_URL: "https://api.cohere.com/v2", CKA_RERANK_MODEL: "rerank-v3.5" }),
    );
    expect(config.rerank).toEqual({
      baseUrl: "https://api.cohere.com/v2",
      model: "rerank-v3.5",
      apiKey: undefined,
      protocol: "cohere",
    });
  });

  it("name a TEI rerank server without a model", () => {
    const config = remoteModelConfig(
      environment({ CKA_RERANK_BASE_URL: "http://tei:80", CKA_RERANK_PROTOCOL: "tei" }),
    );
    expect(config.rerank).toEqual({
      baseUrl: "http://tei:80",
      model: undefined,
      apiKey: undefined,
      protocol: "tei",
    });
  });

  it.each<[string, Record<string, string>, string]>([
    [
      "an embeddings base URL without a model",
      { CKA_EMBEDDINGS_BASE_URL: "http://127.0.0.1:8080/v1" },
      "CKA_EMBEDDINGS_BASE_URL is set but CKA_EMBEDDINGS_MODEL is not",
    ],
    [
      "an embeddings model without a base URL",
      { CKA_EMBEDDINGS_MODEL: "BAAI/bge-small-en-v1.5" },
      "CKA_EMBEDDINGS_MODEL is set but CKA_EMBEDDINGS_BASE_URL is not",
    ],
    [
      "a base URL that is not http(s)",
      { CKA_EMBEDDINGS_BASE_URL: "ftp://models/v1", CKA_EMBEDDINGS_MODEL: "m" },
      "CKA_EMBEDDINGS_BASE_URL must be an http(s) URL",
    ],
    [
      "a base URL that is not a URL",
      { CKA_RERANK_BASE_URL: "localhost:8080", CKA_RERANK_MODEL: "m" },
      "CKA_RERANK_BASE_URL must be an http(s) URL",
    ],
    [
      "a Cohere-style rerank server without a model",
      { CKA_RERANK_BASE_URL: "http://127.0.0.1:7997" },
      "CKA_RERANK_BASE_URL is set but CKA_RERANK_MODEL is not",
    ],
    [
      "an unknown rerank protocol",
      { CKA_RERANK_BASE_URL: "http://127.0.0.1:7997", CKA_RERANK_MODEL: "m", CKA_RERANK_PROTOCOL: "jina" },
      "CKA_RERANK_PROTOCOL must be cohere or tei",
    ],
    [
      "a rerank protocol without a base URL",
      { CKA_RERANK_PROTOCOL: "tei" },
      "CKA_RERANK_MODEL or CKA_RERANK_PROTOCOL is set but CKA_RERANK_BASE_URL is not",
    ],
  ])("refuse %s, saying which setting to fix", (_name, values, message) => {
    expect(() => remoteModelConfig(environment(values))).toThrow(message);
  });

  it("list every problem in one message", () => {
    expect(() =>
      remoteModelConfig(
        environment({ CKA_EMBEDDINGS_BASE_URL: "http://127.0.0.1:8080/v1", CKA_RERANK_PROTOCOL: "tei" }),
      ),
    ).toThrow(/CKA_EMBEDDINGS_MODEL is not.*; .*CKA_RERANK_BASE_URL is not/);
  });
});

describe("the service's settings", () => {
  it("carry the model servers", () => {
    const config = loadConfig(
      temporaryDirectory("cka-config-"),
      environment({ CKA_RERANK_BASE_URL: "http://127.0.0.1:7997/", CKA_RERANK_MODEL: "rerank-test" }),
    );
    expect(config.remote).toEqual({
      embeddings: null,
      rerank: {
        baseUrl: "http://127.0.0.1:7997",
        model: "rerank-test",
        apiKey: undefined,
        protocol: "cohere",
      },
    });
  });

  it("refuse to start with one message naming every setting to fix, the model servers' with the others'", () => {
    expect(() =>
      loadConfig(
        temporaryDirectory("cka-config-"),
        environment({ CKA_OCR: "sometimes", CKA_EMBEDDINGS_BASE_URL: "http://127.0.0.1:8080/v1" }),
      ),
    ).toThrow(/^CKA_OCR: .*; CKA_EMBEDDINGS_BASE_URL is set but CKA_EMBEDDINGS_MODEL is not/);
  });
});
