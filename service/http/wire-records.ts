/**
 * The service's records as the APIs answer them: the one place a stored record becomes a wire record
 * (snake_case, ISO times, absent fields left out), so the stores never speak the wire's shape.
 */
import type {
  Assistant,
  DatasourceRecord,
  DocumentRecord,
  KeyCreated,
  KeyRecord,
} from "../../sdk/admin/schemas.ts";
import type { RetrievalResult, Source } from "../../sdk/core/wire.ts";
import type { PassageWithSource } from "../domain.ts";
import type { DatasourceSummary, StoredAssistant } from "../store/assistants.ts";
import type { StoredDocument } from "../store/documents.ts";
import type { CreatedKey, StoredKey } from "../store/keys.ts";

const isoOrNull = (date: Date | null): string | null => date?.toISOString() ?? null;

export function assistantRecord(assistant: StoredAssistant): Assistant {
  return { id: assistant.id, name: assistant.name, created_at: assistant.createdAt.toISOString() };
}

export function datasourceRecord(datasource: DatasourceSummary): DatasourceRecord {
  return { id: datasource.id, name: datasource.name, documents: datasource.documentCount };
}

/** The sharing area's document: without the service's bookkeeping (its assistant, title, crash counts). */
export function documentRecord(document: StoredDocument): DocumentRecord {
  return {
    id: document.id,
    file_name: document.fileName,
    id_datasource: document.datasourceId,
    datasource: document.datasourceName,
    status: document.status,
    ...(document.error ? { error: document.error } : {}),
    ...(document.warnings.length > 0 ? { warnings: document.warnings } : {}),
    bytes: document.bytes,
    sha256: document.sha256,
    ...(document.pages !== null ? { pages: document.pages } : {}),
    ...(document.pagesDone !== null ? { pages_done: document.pagesDone } : {}),
    ...(document.passages !== null ? { passages: document.passages } : {}),
    ...(document.passagesEmbedded !== null ? { passages_embedded: document.passagesEmbedded } : {}),
    created_at: document.createdAt.toISOString(),
    updated_at: document.updatedAt.toISOString(),
  };
}

/** A ready document as a chat lists what it answers from. */
export function sourceRecord(document: StoredDocument): Source {
  return {
    id_document: document.id,
    id_datasource: document.datasourceId,
    title: document.title ?? document.fileName,
    file_name: document.fileName,
    pages: document.pages,
  };
}

/** A ranked passage as `rag` returns it (CONTRACT: retrieval result metadata). */
export function retrievalResult(passage: PassageWithSource, score: number, rank: number): RetrievalResult {
  const spans = passage.sentences.flatMap((sentence) => sentence.spans ?? []);
  const evidence = passage.evidence;
  const first = evidence.kind === "pdf_highlight" ? spans[0] : undefined;
  // An OCR'd image's spans are its one picture, in pixels.
  const picture = evidence.kind === "image" ? spans[0] : undefined;
  return {
    id_element: passage.id,
    id_datasource: passage.datasourceId,
    content: passage.text,
    rank,
    metadata: {
      kind: passage.kind,
      title: passage.title,
      file_name: passage.fileName,
      id_document: passage.documentId,
      heading: passage.heading || null,
      score: Math.round(score * 1e4) / 1e4,
      ...(first
        ? {
            page_index: first.page_index,
            page_label: first.page_label ?? null,
            page_indices: [...new Set(spans.map((span) => span.page_index))].sort((a, b) => a - b),
            page_width: first.page_width,
            page_height: first.page_height,
            rects: spans.filter((span) => span.page_index === first.page_index).flatMap((span) => span.rects),
          }
        : {}),
      ...(picture
        ? {
            image_width: picture.page_width,
            image_height: picture.page_height,
            rects: spans.flatMap((span) => span.rects),
          }
        : {}),
      ...("url" in evidence ? { url: evidence.url } : {}),
      ...("startS" in evidence ? { start_s: evidence.startS, end_s: evidence.endS } : {}),
    },
  };
}

export function keyRecord(key: StoredKey): KeyRecord {
  return {
    id: key.id,
    id_assistant: key.assistantId,
    name: key.name,
    scopes: key.scopes,
    prefix: key.prefix,
    created_at: key.createdAt.toISOString(),
    revoked_at: isoOrNull(key.revokedAt),
    last_used_at: isoOrNull(key.lastUsedAt),
    expires_at: isoOrNull(key.expiresAt),
  };
}

/** A new key's record with the key itself, shown this once. */
export function keyCreated(created: CreatedKey): KeyCreated {
  return { ...keyRecord(created), key: created.key };
}
