/**
 * Prints the CPU time a process's main thread spends while a PDF slicer serves the first slice of a cold
 * document, its worker reads the rest, and a second slice is served. pdf-slicer.test.ts runs it in a process
 * of its own, so that nothing else on a test runner's main thread (another file's leftovers, its garbage
 * collection) is counted.
 * Usage: node slice-main-thread-cpu.ts BLOBS_FOLDER SHA256 PAGE_COUNT
 */
import { setTimeout as sleep } from "node:timers/promises";
import { createBlobStore } from "../blobs.ts";
import { createPdfSlicer } from "../pdf-slices/pdf-slicer.ts";

const [blobsFolder, sha256, pages] = process.argv.slice(2);
const pageCount = Number(pages);
if (!blobsFolder || !sha256 || !Number.isInteger(pageCount) || pageCount < 1)
  throw new Error("usage: slice-main-thread-cpu.ts BLOBS_FOLDER SHA256 PAGE_COUNT");
const slicer = createPdfSlicer({ blobs: createBlobStore(blobsFolder) });
const before = process.threadCpuUsage();
await slicer.slice(sha256, Math.floor(pageCount / 2), pageCount);
// The worker reads the rest of the document after the first slice is served (gnuplot.pdf: ~0.5 s of CPU).
await sleep(3000);
await slicer.slice(sha256, 10, pageCount);
const { user, system } = process.threadCpuUsage(before);
await slicer.close();
console.log(JSON.stringify({ mainThreadCpuMs: (user + system) / 1000 }));
