import { afterEach, describe, expect, it, vi } from "vitest";
import {
  forgetFailedPdfSlice,
  forgetPdfSlice,
  forgetPdfSlices,
  type LoadPdf,
  loadPdfSlice,
  type PdfSlice,
  slicePageCount,
} from "./pdf-slice-cache.ts";

afterEach(() => forgetPdfSlices());

const request = { messageId: "msg_shared000001", referenceId: "ref_shared000001" };

function sliceOf(label: string): PdfSlice {
  return { bytes: new TextEncoder().encode(`%PDF ${label}`), sliceStart: 4, documentPageCount: 114 };
}

function loaderOf(label: string) {
  return vi.fn<LoadPdf>(async () => sliceOf(label));
}

const textOf = (slice: PdfSlice) => new TextDecoder().decode(slice.bytes);

describe("PDF slices per account", () => {
  it("never hands account A's slice to account B, even for the same message and reference", async () => {
    const loadForAlice = loaderOf("alice");
    const loadForBob = loaderOf("bob");
    expect(textOf(await loadPdfSlice("app:tenant:alice", request, loadForAlice))).toBe("%PDF alice");
    expect(textOf(await loadPdfSlice("app:tenant:bob", request, loadForBob))).toBe("%PDF bob");
    expect(loadForBob).toHaveBeenCalledTimes(1);
  });

  it("loads a slice once per account and reference, whoever asks again", async () => {
    const load = loaderOf("alice");
    const first = loadPdfSlice("app:tenant:alice", request, load);
    const second = loadPdfSlice("app:tenant:alice", request, load);
    expect(second).toBe(first);
    await loadPdfSlice("app:tenant:alice", { ...request, page: 7 }, load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(load).toHaveBeenLastCalledWith(request.messageId, request.referenceId, { page: 7 });
  });

  it("keeps a failed load as failed, so rendering again does not ask the host again, until it is forgotten", async () => {
    const load = vi
      .fn<LoadPdf>()
      .mockRejectedValueOnce(new Error("offline"))
      .mockResolvedValueOnce(sliceOf("alice"));
    await expect(loadPdfSlice("app:tenant:alice", request, load)).rejects.toThrow("offline");
    await expect(loadPdfSlice("app:tenant:alice", request, load)).rejects.toThrow("offline");
    expect(load).toHaveBeenCalledTimes(1);
    forgetPdfSlice("app:tenant:alice", request);
    expect(textOf(await loadPdfSlice("app:tenant:alice", request, load))).toBe("%PDF alice");
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("forgets a failed load when the evidence closes, and keeps a loaded slice", async () => {
    const load = vi
      .fn<LoadPdf>()
      .mockRejectedValueOnce(new Error("signed out"))
      .mockResolvedValueOnce(sliceOf("alice"));
    await expect(loadPdfSlice("app:tenant:alice", request, load)).rejects.toThrow("signed out");
    forgetFailedPdfSlice("app:tenant:alice", request);
    expect(textOf(await loadPdfSlice("app:tenant:alice", request, load))).toBe("%PDF alice");
    forgetFailedPdfSlice("app:tenant:alice", request);
    await loadPdfSlice("app:tenant:alice", request, load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("forgets one account's slices at sign-out and keeps the others'", async () => {
    const load = loaderOf("any");
    await loadPdfSlice("app:tenant:alice", request, load);
    await loadPdfSlice("app:tenant:bob", request, load);
    forgetPdfSlices("app:tenant:alice");
    await loadPdfSlice("app:tenant:bob", request, load);
    expect(load).toHaveBeenCalledTimes(2);
    await loadPdfSlice("app:tenant:alice", request, load);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it("keeps a bounded number of slices, dropping the least recently used", async () => {
    const load = loaderOf("any");
    for (let index = 0; index < 30; index += 1) {
      await loadPdfSlice("app:tenant:alice", { ...request, page: index }, load);
    }
    await loadPdfSlice("app:tenant:alice", { ...request, page: 29 }, load);
    expect(load).toHaveBeenCalledTimes(30);
    await loadPdfSlice("app:tenant:alice", { ...request, page: 0 }, load);
    expect(load).toHaveBeenCalledTimes(31);
  });
});

describe("the pages a slice holds", () => {
  const slice = (sliceStart: number, documentPageCount: number): PdfSlice => ({
    bytes: new Uint8Array(),
    sliceStart,
    documentPageCount,
  });

  it("are three in a long document, wherever the slice starts, and all of a shorter one", () => {
    expect(slicePageCount(slice(19, 311))).toBe(3);
    expect(slicePageCount(slice(308, 311))).toBe(3);
    expect(slicePageCount(slice(0, 2))).toBe(2);
    expect(slicePageCount(slice(0, 1))).toBe(1);
  });
});
