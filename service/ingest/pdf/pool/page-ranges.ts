/**
 * How a document's pages are cut into ranges for the workers reading it: ranges a crashed helper lost are
 * handed out first, ranges shrink near the end, and an answer names its range by the range's first page.
 */
import type { Job, PageRange, Reader } from "./state.ts";

/** Pages per range handed to a worker at most; ranges shrink near a document's end (see `rangePages`). */
export const RANGE_PAGES = 16;
const MIN_RANGE_PAGES = 2;
/** Requests a worker holds at once, so it never idles while the main thread is busy elsewhere. */
export const DEPTH = 2;

/** Pages no worker has in hand: not handed out yet, or lost with a helper. */
export const unassigned = (job: Job): number =>
  job.pageCount === null
    ? 0
    : job.pageCount - job.next + job.lost.reduce((sum, range) => sum + range.end - range.first, 0);

/**
 * A share of the pages left: whole ranges of 16 while there are many, a few pages at the end, so that
 * no worker is still reading a long last range while the others have nothing left to do.
 */
const rangePages = (left: number, size: number): number =>
  Math.min(RANGE_PAGES, Math.max(MIN_RANGE_PAGES, Math.ceil(left / (2 * size * DEPTH))));

/** The next range of the document to read, for a pool of `size` workers; null when every page is handed out. */
export function takeRange(job: Job, size: number): PageRange | null {
  const lost = job.lost.shift();
  if (lost !== undefined) return lost;
  if (job.pageCount === null || job.next >= job.pageCount) return null;
  const range = {
    first: job.next,
    end: Math.min(job.next + rangePages(job.pageCount - job.next, size), job.pageCount),
  };
  job.next = range.end;
  // Every page is handed out: no helper will need the bytes any more.
  if (job.next >= job.pageCount) job.bytes = null;
  return range;
}

/** The range starting at `first`, no longer in the reader's hands; ranges waiting for OCR answer late. */
export function answered(reader: Reader, first: number): PageRange | undefined {
  const index = reader.ranges.findIndex((range) => range.first === first);
  return index === -1 ? undefined : reader.ranges.splice(index, 1)[0];
}
