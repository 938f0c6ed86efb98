/**
 * Worker thread of the pdfjs floor: on each message, opens each file and reads the text content of its share
 * of the pages, then answers with the pages read. A second pass runs on code the first one warmed up.
 */
import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { openPdf } from "../../service/ingest/pdf/pdf-document.ts";

const { files, share, shares } = workerData as { files: string[]; share: number; shares: number };

async function readShare(): Promise<number> {
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
  return pages;
}

// A failed read is an unhandled rejection, which ends the thread with an 'error' event for the caller.
parentPort?.on("message", async () => {
  parentPort?.postMessage(await readShare());
});
