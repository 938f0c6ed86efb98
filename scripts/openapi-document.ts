/** Builds the OpenAPI 3.1 document of the public API and the sharing area from the sdk/core zod schemas. */
import { z } from "zod";
import {
  assistantCreateSchema,
  assistantListSchema,
  assistantRenameSchema,
  assistantSchema,
  datasourceListSchema,
  documentListSchema,
  keyCreatedSchema,
  keyCreateSchema,
  keyListSchema,
  limitsSchema,
  serviceStatusSchema,
  shareSchema,
} from "../sdk/admin/schemas.ts";
import { SDK_VERSION } from "../sdk/core/index.ts";
import { adminBasePath, publicPathTemplates } from "../sdk/core/service-paths.ts";
import {
  askRequestSchema,
  askStreamLineSchema,
  pdfRefreshRequestSchema,
  pdfRefreshResponseSchema,
  problemDetailsSchema,
  ragRequestSchema,
  ragResponseSchema,
  sourceListSchema,
} from "../sdk/core/wire.ts";

type JsonObject = Record<string, unknown>;

function schema(zodSchema: z.ZodType, io: "input" | "output"): JsonObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(zodSchema, {
    io,
    unrepresentable: "any",
  }) as JsonObject;
  return rest;
}

const problem = (description: string) => ({
  description,
  headers: { "X-Request-ID": { $ref: "#/components/headers/RequestId" } },
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/ProblemDetails" } } },
});

const commonErrors = {
  "400": problem("Unreadable request: bad JSON, wrong content type or a missing X-App-Code header."),
  "401": problem("Missing, malformed, unknown or revoked key (`invalid_key`)."),
  "403": problem("The key lacks the scope this call needs (`missing_scope`)."),
  "404": problem("Unknown assistant, or one this key may not act for."),
  "413": problem("Request body too large."),
  "422": problem("Readable but out of bounds (`invalid_input`); `errors` lists each field."),
  "429": {
    ...problem("Rate limited; retry after `Retry-After` seconds."),
    headers: {
      "X-Request-ID": { $ref: "#/components/headers/RequestId" },
      "Retry-After": { schema: { type: "integer" } },
      "RateLimit-Limit": { schema: { type: "integer" } },
      "RateLimit-Remaining": { schema: { type: "integer" } },
      "RateLimit-Reset": { schema: { type: "integer" } },
    },
  },
  "502": problem("Transient upstream failure; retry."),
  "503": problem("Temporarily unavailable; retry."),
  "504": problem("Timed out; retry."),
};

const jsonBody = (ref: string) => ({
  required: true,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
});

const jsonResponse = (description: string, ref: string) => ({
  description,
  headers: { "X-Request-ID": { $ref: "#/components/headers/RequestId" } },
  content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
});

const publicHeaders = [
  { $ref: "#/components/parameters/AppCode" },
  { $ref: "#/components/parameters/RequestId" },
];
const adminSecurity = [{ adminToken: [] }];
const assistantPath = { name: "assistant", in: "path", required: true, schema: { type: "string" } };
const tokenPath = { name: "token", in: "path", required: true, schema: { type: "string" } };
const pageQuery = { name: "page", in: "query", required: true, schema: { type: "integer", minimum: 0 } };
const tokenUser = {
  name: "X-External-User-Id",
  in: "header",
  required: true,
  description: "Must equal the user the token was issued for.",
  schema: { type: "string" },
};

/** The public API of the interface spec, and what an assistant answers from. */
function publicPaths(): JsonObject {
  return {
    [publicPathTemplates.ask]: {
      post: {
        operationId: "ask",
        summary: "Ask a question; streams a cited, session-aware answer (scope `ask`).",
        parameters: [
          assistantPath,
          {
            name: "external_session",
            in: "path",
            required: true,
            description: "Caller-chosen UUID; asks with the same session share memory.",
            schema: { type: "string", format: "uuid" },
          },
          ...publicHeaders,
        ],
        requestBody: jsonBody("AskRequest"),
        responses: {
          "200": {
            description:
              "NDJSON stream, one AskStreamLine per line: status/activity events, `utterance` snapshots (replace the text; claims, references and numbering accumulate), then `done`, or `error` if a failure happens after the stream started.",
            headers: { "X-Request-ID": { $ref: "#/components/headers/RequestId" } },
            content: {
              "application/x-ndjson": {
                schema: { $ref: "#/components/schemas/AskStreamLine" },
                // OpenAPI 3.2's itemSchema (each line's schema), as an extension of this 3.1 document.
                "x-itemSchema": { $ref: "#/components/schemas/AskStreamLine" },
              },
            },
          },
          ...commonErrors,
        },
      },
    },
    [publicPathTemplates.rag]: {
      post: {
        operationId: "rag",
        summary: "Ranked passages for the caller's own model (scope `rag`).",
        parameters: [assistantPath, ...publicHeaders],
        requestBody: jsonBody("RagRequest"),
        responses: { "200": jsonResponse("Ranked retrieval results.", "RagResponse"), ...commonErrors },
      },
    },
    [publicPathTemplates.sources]: {
      get: {
        operationId: "sources",
        summary:
          "The documents the assistant answers from (ready ones, oldest first, at most 200) and how many there are (scope `ask`).",
        parameters: [assistantPath, ...publicHeaders],
        responses: { "200": jsonResponse("The assistant's sources.", "SourceList"), ...commonErrors },
      },
    },
    [publicPathTemplates.pdfPage]: {
      get: {
        operationId: "pdfPage",
        summary: "A 3-page PDF slice around the cited page (scope `ask`).",
        parameters: [tokenPath, pageQuery, tokenUser, ...publicHeaders],
        responses: {
          "200": {
            description: "Pages [page-1, page, page+1] clamped to the document.",
            headers: {
              "X-Request-ID": { $ref: "#/components/headers/RequestId" },
              "X-Pdf-Slice-Start": {
                description: "0-based index of the slice's first page.",
                schema: { type: "integer" },
              },
              "X-Pdf-Page-Count": {
                description: "Pages in the whole document.",
                schema: { type: "integer" },
              },
              "Cache-Control": { schema: { type: "string" } },
            },
            content: {
              "application/pdf": { schema: { type: "string", contentMediaType: "application/pdf" } },
            },
          },
          ...commonErrors,
          "401": problem("Invalid key, tampered token (`invalid_token`) or expired token (`token_expired`)."),
          "403": problem("Missing scope, or X-External-User-Id is not the token's user."),
        },
      },
    },
    [publicPathTemplates.image]: {
      get: {
        operationId: "image",
        summary:
          "The uploaded image (PNG, JPEG, TIFF or WebP) an `image` reference with a `region` quotes, as it was uploaded (scope `ask`). An expired token is renewed with the PDF refresh.",
        parameters: [tokenPath, tokenUser, ...publicHeaders],
        responses: {
          "200": {
            description: "The image's bytes; `region` rectangles are pixels of it.",
            headers: {
              "X-Request-ID": { $ref: "#/components/headers/RequestId" },
              "Cache-Control": { schema: { type: "string" } },
            },
            content: Object.fromEntries(
              ["image/png", "image/jpeg", "image/tiff", "image/webp"].map((type) => [
                type,
                { schema: { type: "string", contentMediaType: type } },
              ]),
            ),
          },
          ...commonErrors,
          "401": problem("Invalid key, tampered token (`invalid_token`) or expired token (`token_expired`)."),
          "403": problem("Missing scope, or X-External-User-Id is not the token's user."),
        },
      },
    },
    [publicPathTemplates.pdfRefresh]: {
      post: {
        operationId: "pdfRefresh",
        summary: "Renew an expired, authentic PDF or image token, once (scope `ask`).",
        parameters: publicHeaders,
        requestBody: jsonBody("PdfRefreshRequest"),
        responses: {
          "200": jsonResponse("A new token.", "PdfRefreshResponse"),
          ...commonErrors,
          "409": problem("The token is not expired yet, or was already renewed (`refresh_not_allowed`)."),
        },
      },
    },
  };
}

/** Every sharing-area operation takes the admin token, and answers 401 when it is wrong. */
function behindAdminToken(paths: Record<string, Record<string, JsonObject>>): JsonObject {
  return Object.fromEntries(
    Object.entries(paths).map(([path, operations]) => [
      path,
      Object.fromEntries(
        Object.entries(operations).map(([method, operation]) => [
          method,
          {
            ...operation,
            security: adminSecurity,
            responses: { "401": problem("Wrong admin token."), ...(operation.responses as JsonObject) },
          },
        ]),
      ),
    ]),
  );
}

/** The sharing area (`/admin/v1`), behind the admin token. */
function adminPaths(): JsonObject {
  return behindAdminToken({
    [`${adminBasePath}/assistants`]: {
      get: {
        operationId: "listAssistants",
        summary: "The service's assistants.",
        responses: {
          "200": jsonResponse("Assistants.", "AssistantList"),
          "401": problem("Wrong admin token."),
        },
      },
      post: {
        operationId: "createAssistant",
        summary: "Create an assistant.",
        requestBody: jsonBody("AssistantCreate"),
        responses: { "201": jsonResponse("Created.", "Assistant"), "401": problem("Wrong admin token.") },
      },
    },
    [`${adminBasePath}/assistants/{assistant}`]: {
      patch: {
        operationId: "renameAssistant",
        summary: "Rename an assistant.",
        parameters: [assistantPath],
        requestBody: jsonBody("AssistantRename"),
        responses: {
          "200": jsonResponse("The renamed assistant.", "Assistant"),
          "404": problem("Unknown assistant."),
          "422": problem("The name is empty or longer than 200 characters (`invalid_input`)."),
        },
      },
      delete: {
        operationId: "deleteAssistant",
        summary: "Delete an assistant with its documents, keys and sessions.",
        parameters: [assistantPath],
        responses: { "204": { description: "Deleted." }, "404": problem("Unknown assistant.") },
      },
    },
    [`${adminBasePath}/assistants/{assistant}/documents`]: {
      get: {
        operationId: "listDocuments",
        summary: "An assistant's documents with their ingestion state; long-polls for changes.",
        description:
          "Long polling: send the last ETag in `If-None-Match` and `Prefer: wait=N` (at most 30 s); the " +
          "request is answered as soon as a document changes (progress included), else with 304 after N s.",
        parameters: [
          assistantPath,
          { name: "If-None-Match", in: "header", schema: { type: "string" } },
          { name: "Prefer", in: "header", schema: { type: "string", examples: ["wait=10"] } },
        ],
        responses: {
          "200": {
            ...jsonResponse("Documents with their ingestion state.", "DocumentList"),
            headers: {
              "X-Request-ID": { $ref: "#/components/headers/RequestId" },
              ETag: { schema: { type: "string" } },
            },
          },
          "304": {
            description: "Nothing changed during the wait.",
            headers: { ETag: { schema: { type: "string" } } },
          },
        },
      },
      post: {
        operationId: "uploadDocuments",
        summary: "Upload files into a datasource of the assistant; they are read in the background.",
        parameters: [assistantPath],
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: {
                type: "object",
                properties: {
                  files: {
                    type: "array",
                    items: { type: "string", contentMediaType: "application/octet-stream" },
                    description:
                      "The files, each with its name. Read: PDF, Word (.docx), PowerPoint (.pptx), Excel (.xlsx), OpenDocument spreadsheets (.ods), EPUB, Markdown, plain text, HTML, CSV/TSV, WebVTT/SRT and JSON/JSON Lines. A file that cannot be read (empty, damaged, another kind than its extension says, password-protected, a ZIP bomb) becomes a failed document whose error says why; the others are read.",
                  },
                  datasource: {
                    type: "string",
                    description: "Datasource name or id; default: the assistant's own.",
                  },
                },
                required: ["files"],
              },
            },
          },
        },
        responses: {
          "202": jsonResponse("Accepted; ingestion runs in the background.", "DocumentList"),
          "404": problem("Unknown assistant."),
          "413": problem("A file is over the size limit."),
        },
      },
    },
    [`${adminBasePath}/assistants/{assistant}/documents/{document}`]: {
      delete: {
        operationId: "deleteDocument",
        summary: "Delete a document; its passages are no longer found.",
        parameters: [
          assistantPath,
          { name: "document", in: "path", required: true, schema: { type: "string" } },
        ],
        responses: { "204": { description: "Deleted." }, "404": problem("Unknown document.") },
      },
    },
    [`${adminBasePath}/assistants/{assistant}/datasources`]: {
      get: {
        operationId: "listDatasources",
        summary:
          "The assistant's datasources (groups of documents named at upload) with their document counts.",
        parameters: [assistantPath],
        responses: {
          "200": jsonResponse("Datasources in the order they were made.", "DatasourceList"),
          "404": problem("Unknown assistant."),
        },
      },
    },
    [`${adminBasePath}/assistants/{assistant}/keys`]: {
      get: {
        operationId: "listKeys",
        summary: "An assistant's API keys (never their secrets).",
        parameters: [assistantPath],
        responses: { "200": jsonResponse("Keys (never the secret).", "KeyList") },
      },
      post: {
        operationId: "createKey",
        summary: "Create an API key with its scopes, and optionally an end; the secret is shown once.",
        parameters: [assistantPath],
        requestBody: jsonBody("KeyCreate"),
        responses: { "201": jsonResponse("The key; the full secret is shown only here.", "KeyCreated") },
      },
    },
    [`${adminBasePath}/keys/{key}`]: {
      delete: {
        operationId: "revokeKey",
        summary: "Revoke an API key; its next request is refused.",
        parameters: [{ name: "key", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          "204": { description: "Revoked, effective on the next request." },
          "404": problem("Unknown key."),
        },
      },
    },
    [`${adminBasePath}/assistants/{assistant}/share`]: {
      get: {
        operationId: "share",
        summary: "What a host app needs to reach the assistant: its id and the base URL.",
        parameters: [assistantPath],
        responses: {
          "200": jsonResponse("What the SDK needs: the assistant id and the base URL.", "Share"),
        },
      },
    },
    [`${adminBasePath}/status`]: {
      get: {
        operationId: "status",
        summary: "How the service finds passages: by meaning and words, or by words only, and why.",
        responses: {
          "200": jsonResponse("`search`: semantic, loading or lexical, with a `detail`.", "ServiceStatus"),
          "401": problem("Wrong admin token."),
        },
      },
    },
    [`${adminBasePath}/limits`]: {
      get: {
        operationId: "limits",
        summary: "The service's limits, to check an upload before sending it.",
        responses: {
          "200": jsonResponse("`max_upload_bytes`: a larger file is answered 413.", "Limits"),
          "401": problem("Wrong admin token."),
        },
      },
    },
  });
}

function components(): JsonObject {
  return {
    securitySchemes: {
      apiKey: {
        type: "http",
        scheme: "bearer",
        description: "Assistant API key with scopes `ask` and/or `rag`.",
      },
      adminToken: {
        type: "http",
        scheme: "bearer",
        description: "The sharing-area admin token (CKA_ADMIN_TOKEN).",
      },
    },
    parameters: {
      AppCode: {
        name: "X-App-Code",
        in: "header",
        required: true,
        schema: { type: "string", const: "selfserve" },
      },
      RequestId: {
        name: "X-Request-ID",
        in: "header",
        required: false,
        description: "Echoed back when valid; generated otherwise.",
        schema: { type: "string" },
      },
    },
    headers: { RequestId: { description: "Keep it for support.", schema: { type: "string" } } },
    schemas: {
      AskRequest: schema(askRequestSchema, "input"),
      AskStreamLine: schema(askStreamLineSchema, "output"),
      RagRequest: schema(ragRequestSchema, "input"),
      RagResponse: schema(ragResponseSchema, "output"),
      SourceList: schema(sourceListSchema, "output"),
      PdfRefreshRequest: schema(pdfRefreshRequestSchema, "input"),
      PdfRefreshResponse: schema(pdfRefreshResponseSchema, "output"),
      ProblemDetails: schema(problemDetailsSchema, "output"),
      AssistantCreate: schema(assistantCreateSchema, "input"),
      AssistantRename: schema(assistantRenameSchema, "input"),
      Assistant: schema(assistantSchema, "output"),
      AssistantList: schema(assistantListSchema, "output"),
      DocumentList: schema(documentListSchema, "output"),
      DatasourceList: schema(datasourceListSchema, "output"),
      KeyCreate: schema(keyCreateSchema, "input"),
      KeyCreated: schema(keyCreatedSchema, "output"),
      KeyList: schema(keyListSchema, "output"),
      Share: schema(shareSchema, "output"),
      ServiceStatus: schema(serviceStatusSchema, "output"),
      Limits: schema(limitsSchema, "output"),
    },
  };
}

export function buildOpenApiDocument(): JsonObject {
  return {
    openapi: "3.1.1",
    info: {
      title: "Cited knowledge agent service",
      version: SDK_VERSION,
      description:
        "Cited answers grounded in uploaded documents. Generated from the zod schemas in sdk/core (npm run openapi); do not edit by hand.",
    },
    servers: [{ url: "{base_url}", variables: { base_url: { default: "http://127.0.0.1:8787" } } }],
    security: [{ apiKey: [] }],
    paths: { ...publicPaths(), ...adminPaths() },
    components: components(),
  };
}

export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
