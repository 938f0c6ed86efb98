/**
 * Reads a zipped document (DOCX, PPTX, XLSX, ODS, EPUB) on a thread of its own: the seconds a large workbook's
 * XML takes to parse do not hold the service's event loop, and a file that exhausts the thread's memory ends
 * the thread, not the service.
 */
import { Worker } from "node:worker_threads";
import { SourceReadError, type TextExtraction } from "../types.ts";

/** The extensions read here, without their dot. */
export const zipFormatExtensions: ReadonlySet<string> = new Set(["docx", "pptx", "xlsx", "ods", "epub"]);

export type ZipReadReply =
  | { ok: true; extraction: TextExtraction }
  | { ok: false; known: boolean; message: string; stack: string | null };

/** Far above what the unpacked-size limit lets a file cost (about ten times its parts). */
const heapLimitMb = 2048;

/**
 * Far above what the largest honest file takes (a 50,000-row workbook: about 4 s); a file built to make the
 * reader loop (a part listed a million times) is stopped here instead of holding an ingestion slot.
 */
const readingLimitMs = 120_000;

export function isZipFormat(fileName: string): boolean {
  const base = fileName.split(/[/\\]/u).at(-1) ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 && zipFormatExtensions.has(base.slice(dot + 1).toLowerCase());
}

/** @throws SourceReadError with the reader's reason; any other Error for a failure of the reader itself. */
export function readZipFormatInWorker(
  fileName: string,
  bytes: Uint8Array,
  options: { timeoutMs?: number } = {},
): Promise<TextExtraction> {
  const timeoutMs = options.timeoutMs ?? readingLimitMs;
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./zip-worker.ts", import.meta.url), {
      workerData: { fileName, bytes },
      resourceLimits: { maxOldGenerationSizeMb: heapLimitMb },
    });
    let settled = false;
    const deadline = setTimeout(
      () =>
        settle(() =>
          reject(
            new SourceReadError(
              `Reading the file took longer than ${Math.round(timeoutMs / 1000)} s, so it was stopped; a document this slow to read is likely built to exhaust the reader.`,
            ),
          ),
        ),
      timeoutMs,
    );
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      finish();
      void worker.terminate();
    };
    worker.once("message", (reply: ZipReadReply) =>
      settle(() => {
        if (reply.ok) resolve(reply.extraction);
        else if (reply.known) reject(new SourceReadError(reply.message));
        else reject(Object.assign(new Error(reply.message), { stack: reply.stack ?? undefined }));
      }),
    );
    worker.once("error", (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new SourceReadError("The file needs more memory to read than the service gives one file.")
            : error,
        ),
      ),
    );
    worker.once("exit", (code) =>
      settle(() => reject(new Error(`the reader's thread exited with code ${code}`))),
    );
  });
}
