/** PDF slice latency over HTTP (`/chat/reference/pdf/:token`), beside one `qpdf` process per slice. */

import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import { createPdfTokens } from "../../service/pdf-slices/pdf-token.ts";
import { temporaryDirectory } from "../../service/testing/temporary-directory.ts";
import { type BenchService, sharedSecrets } from "./bench-service.ts";

const run = promisify(execFile);

/** Times single-page slices of `fileName`, one request at a time, in the order of `pages` (1-based). */
export async function sliceTimes(
  bench: BenchService,
  fileName: string,
  pages: readonly number[],
): Promise<number[]> {
  const document = (await bench.admin.listDocuments(bench.assistantId)).find(
    (row) => row.file_name === fileName,
  );
  if (!document) throw new Error(`${fileName} is not among the ingested documents`);
  const tokens = createPdfTokens(sharedSecrets.tokenSecret, 600);
  const times: number[] = [];
  for (const page of pages) {
    const { token } = tokens.issue({
      assistant: bench.assistantId,
      reference: "ref_bench000000",
      document: document.id,
      pages: [page],
      user: "bench",
      session: crypto.randomUUID(),
    });
    const started = performance.now();
    const response = await fetch(`${bench.service.url}${publicPaths.pdfPage(token, page)}`, {
      headers: {
        Authorization: bench.headers.Authorization!,
        "X-App-Code": "selfserve",
        "X-External-User-Id": "bench",
      },
    });
    if (response.status !== 200) throw new Error(`slice answered ${response.status}`);
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  return times;
}

/** Milliseconds of `qpdf --empty --pages <file> <page> -- out.pdf` per page, process start included. */
export async function qpdfTimes(file: string, pages: readonly number[]): Promise<number[]> {
  const out = join(temporaryDirectory("cka-bench-qpdf-"), "slice.pdf");
  const times: number[] = [];
  for (const page of pages) {
    const started = performance.now();
    await run("qpdf", ["--empty", "--pages", file, String(page), "--", out]);
    times.push(performance.now() - started);
  }
  return times;
}
