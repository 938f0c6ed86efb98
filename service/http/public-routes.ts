/**
 * The public API of the interface spec (ask, rag, the PDF page slice and PDF refresh), the uploaded image an
 * `image` reference quotes, and what an assistant answers from.
 */

import type { Context } from "hono";
import { HttpProblem, limits, parseInput, readJsonBody } from "../../sdk/core/index.ts";
import { publicPathTemplates, routePattern } from "../../sdk/core/service-paths.ts";
import {
  askRequestSchema,
  externalSessionSchema,
  pdfPageQuerySchema,
  pdfRefreshRequestSchema,
  pdfSliceHeaders,
  ragRequestSchema,
} from "../../sdk/core/wire.ts";
import { answerQuestion } from "../answer/answer-question.ts";
import type { AnswerEngine } from "../answer/engine.ts";
import { topicTerms } from "../answer/question-terms.ts";
import { retrieve, type SemanticSearch, type SemanticUnavailable } from "../answer/retrieve.ts";
import type { BlobStore } from "../blobs.ts";
import type { PriorityEmbedder, Reranker } from "../embedding/text-embedder.ts";
import type { AssistantIndexes } from "../index/assistant-indexes.ts";
import { sniffImage } from "../ingest/image/image-type.ts";
import type { Logger } from "../logger.ts";
import type { PdfSlicer } from "../pdf-slices/pdf-slicer.ts";
import type { PdfTokenPayload, PdfTokens } from "../pdf-slices/pdf-token.ts";
import type { Store } from "../store/store.ts";
import type { AppVariables, ServiceHono } from "./app.ts";
import { askStreamLines } from "./ask-stream-lines.ts";
import { ndjsonResponse } from "./ndjson-response.ts";
import { assertOwnAssistant, requireApiKey } from "./public-auth.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { retrievalResult, sourceRecord } from "./wire-records.ts";

export interface PublicDependencies {
  store: Store;
  indexes: AssistantIndexes;
  tokens: PdfTokens;
  slicer: PdfSlicer;
  /** The uploaded files, read whole to serve an image. */
  blobs: BlobStore;
  limiter: RateLimiter;
  logger: Logger;
  engine: AnswerEngine;
  /** The model questions are embedded with; null when the service runs lexical only. */
  embedder: () => PriorityEmbedder | SemanticUnavailable | null;
  /** Scores candidate sentences for ask, when a rerank server is configured. */
  reranker: Reranker | null;
}

const bodyLimit = 64 * 1024;

/** Whole seconds the token still has, rounded down: what it served must not be cached longer than it lives. */
function cacheControl(payload: PdfTokenPayload): string {
  return `private, max-age=${Math.max(0, payload.exp - Math.ceil(Date.now() / 1000))}`;
}

export function mountPublicRoutes(app: ServiceHono, dependencies: PublicDependencies): void {
  const { store, tokens } = dependencies;
  async function semanticSearch(assistantId: string): Promise<SemanticSearch | SemanticUnavailable | null> {
    const embedder = dependencies.embedder();
    if (!embedder || "unavailable" in embedder) return embedder;
    const dense = await dependencies.indexes.dense(assistantId);
    return dense ? { dense, embedder } : null;
  }
  const askGuard = requireApiKey("ask", store.keys, dependencies.limiter);
  const ragGuard = requireApiKey("rag", store.keys, dependencies.limiter);

  /** The token of a PDF slice or image request, once it is authentic, current, of this key's assistant and user. */
  function grantedToken(
    context: Context<{ Variables: AppVariables }>,
    media: "pdf" | "image",
  ): PdfTokenPayload {
    const verified = tokens.verify(context.req.param("token") ?? "");
    const name = media === "pdf" ? "PDF" : "image";
    if (!verified.valid || (verified.payload.media ?? "pdf") !== media)
      throw new HttpProblem(401, "invalid_token", `The ${name} token is not valid.`);
    const { payload } = verified;
    assertOwnAssistant(context.get("apiKey"), payload.assistant);
    if (verified.expired) {
      throw new HttpProblem(
        401,
        "token_expired",
        `The ${name} token has expired; renew it once with ${publicPathTemplates.pdfRefresh}.`,
      );
    }
    if (context.req.header("X-External-User-Id") !== payload.user) {
      throw new HttpProblem(
        403,
        "forbidden",
        "X-External-User-Id is not the user this reference was issued to.",
      );
    }
    return payload;
  }

  app.post(routePattern(publicPathTemplates.ask), askGuard, async (context) => {
    const assistantId = context.req.param("assistant")!;
    assertOwnAssistant(context.get("apiKey"), assistantId);
    const session = externalSessionSchema.safeParse(context.req.param("external_session"));
    if (!session.success) {
      throw new HttpProblem(422, "invalid_input", "external_session must be a UUID.", {
        errors: [{ path: "external_session", message: "must be a UUID" }],
      });
    }
    // A UUID in any letter case names one session: stored and compared in its lower-case spelling.
    const sessionId = session.data.toLowerCase();
    const input = parseInput(askRequestSchema, await readJsonBody(context.req.raw, { maxBytes: bodyLimit }));
    const owner = await store.sessions.owner(assistantId, sessionId, input.id_user);
    if (owner !== input.id_user)
      throw new HttpProblem(403, "forbidden", "This session belongs to another user.");
    const index = await dependencies.indexes.get(assistantId);
    const semantic = await semanticSearch(assistantId);
    const ask = {
      assistantId,
      session: sessionId,
      user: input.id_user,
      message: input.message,
      detail: input.detail_level ?? "BALANCED",
      technicality: input.technicality_level ?? "BALANCED",
    };
    return ndjsonResponse(
      (signal) =>
        askStreamLines(
          answerQuestion(
            ask,
            { store, index, semantic, tokens, engine: dependencies.engine, reranker: dependencies.reranker },
            signal,
          ),
        ),
      { requestId: context.get("requestId"), logger: dependencies.logger },
    );
  });

  // What a chat can tell a person before the first question: the documents it answers from.
  app.get(routePattern(publicPathTemplates.sources), askGuard, async (context) => {
    const assistantId = context.req.param("assistant")!;
    assertOwnAssistant(context.get("apiKey"), assistantId);
    const ready = (await store.documents.list(assistantId)).filter((document) => document.status === "ready");
    const sources = ready.slice(0, limits.sourcesListed).map(sourceRecord);
    return context.json({ sources, total: ready.length });
  });

  app.post(routePattern(publicPathTemplates.rag), ragGuard, async (context) => {
    const assistantId = context.req.param("assistant")!;
    assertOwnAssistant(context.get("apiKey"), assistantId);
    const input = parseInput(ragRequestSchema, await readJsonBody(context.req.raw, { maxBytes: bodyLimit }));
    const index = await dependencies.indexes.get(assistantId);
    const { hits } = await retrieve(
      index,
      await semanticSearch(assistantId),
      { text: input.query, terms: topicTerms(input.query) },
      {
        limit: input.max_results,
        ...(input.datasource_ids ? { datasourceIds: input.datasource_ids } : {}),
        signal: context.req.raw.signal,
      },
    );
    const passages = await store.passages.byIds(
      assistantId,
      hits.map((hit) => hit.id),
    );
    const scoreOf = new Map(hits.map((hit) => [hit.id, hit.score]));
    const results = passages.map((passage, position) => {
      const result = retrievalResult(passage, scoreOf.get(passage.id) ?? 0, position + 1);
      const { page_indices: pages, image_width: imageWidth } = result.metadata;
      if (input.id_user === undefined || (pages === undefined && imageWidth === undefined)) return result;
      // Bound to no session, so no refresh can renew it: a new search gives a new token.
      const token = tokens.issue({
        ...(pages === undefined ? { media: "image" as const } : {}),
        assistant: assistantId,
        reference: passage.id,
        document: passage.documentId,
        pages: pages ?? [0],
        user: input.id_user,
        session: "",
      });
      const served = pages === undefined ? { image: token } : { pdf: token };
      return { ...result, metadata: { ...result.metadata, ...served } };
    });
    return context.json({ results });
  });

  app.get(routePattern(publicPathTemplates.pdfPage), askGuard, async (context) => {
    const payload = grantedToken(context, "pdf");
    const { page } = parseInput(pdfPageQuerySchema, { page: context.req.query("page") });
    if (!payload.pages.includes(page)) {
      throw new HttpProblem(
        422,
        "invalid_input",
        `page must be a page of the reference: ${payload.pages.join(", ")}.`,
        {
          errors: [{ path: "page", message: `one of ${payload.pages.join(", ")}` }],
        },
      );
    }
    const document = await store.documents.sliceable(payload.document);
    if (!document) {
      throw new HttpProblem(404, "not_found", "The cited document is no longer available.");
    }
    const slice = await dependencies.slicer.slice(document.sha256, page, document.pages);
    return new Response(slice.bytes, {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `inline; filename="slice-${slice.start + 1}.pdf"`,
        [pdfSliceHeaders.sliceStart]: String(slice.start),
        [pdfSliceHeaders.pageCount]: String(slice.pageCount),
        "Cache-Control": cacheControl(payload),
      },
    });
  });

  app.get(routePattern(publicPathTemplates.image), askGuard, async (context) => {
    const payload = grantedToken(context, "image");
    const document = await store.documents.get(payload.document);
    if (document?.status !== "ready" || document.assistantId !== payload.assistant) {
      throw new HttpProblem(404, "not_found", "The cited image is no longer available.");
    }
    const bytes = await dependencies.blobs.read(document.sha256);
    const type = sniffImage(bytes.subarray(0, 16));
    if (type === null) throw new HttpProblem(404, "not_found", "The cited document is not an image.");
    return new Response(new Uint8Array(bytes), {
      headers: {
        "Content-Type": type.mime,
        "Content-Disposition": "inline",
        "Cache-Control": cacheControl(payload),
      },
    });
  });

  app.post(publicPathTemplates.pdfRefresh, askGuard, async (context) => {
    const input = parseInput(
      pdfRefreshRequestSchema,
      await readJsonBody(context.req.raw, { maxBytes: bodyLimit }),
    );
    const verified = tokens.verify(input.token);
    if (!verified.valid) throw new HttpProblem(401, "invalid_token", "The PDF token is not valid.");
    const { payload } = verified;
    assertOwnAssistant(context.get("apiKey"), payload.assistant);
    if (
      payload.reference !== input.id_reference ||
      payload.user !== input.id_user ||
      payload.session !== input.external_session.toLowerCase()
    ) {
      throw new HttpProblem(403, "forbidden", "The token was issued for another reference, user or session.");
    }
    if (!verified.expired) {
      throw new HttpProblem(409, "refresh_not_allowed", "The token has not expired yet; keep using it.");
    }
    if (payload.renewal_of !== undefined || !(await store.sessions.markRefreshed(payload.t))) {
      throw new HttpProblem(
        409,
        "refresh_not_allowed",
        "This reference was already renewed once; ask again for a new reference.",
      );
    }
    return context.json(tokens.renew(payload));
  });
}
