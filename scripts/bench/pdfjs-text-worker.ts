/** Worker thread of the pdfjs floor: opens each file and reads the text content of its share of the pages. */
import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { openPdf } from "../../service/ingest/pdf/pdf-document.ts";

const { files, share, shares } = workerData as { files: string[]; share: number; shares: number };
let pages = 0;
for (const file of files) {
  const opened = await openPdf(new Uint8Array(readFileSync(file)));
  try {
    for (let number = 1 + share; number <= opened.document.numPages; number += shares) {
      const page = await opened.document.getPage(number);
      await page.getTextContent();
      page.cleanup();
      pages += 1;
    }
  } finally {
    await opened.close();
  }
}
parentPort?.postMessage(pages);
