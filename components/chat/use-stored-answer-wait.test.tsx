// @vitest-environment jsdom
import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const refresh = vi.fn();
// Next's router object is the same on every render.
const router = { refresh };
vi.mock("next/navigation", () => ({ useRouter: () => router }));
const { giveUpAtMs, readAgainAtMs, useStoredAnswerWait } = await import("./use-stored-answer-wait.ts");

describe("useStoredAnswerWait", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    refresh.mockClear();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("reads the page again a few times while an answer may be on its way, then says there is none", () => {
    const { result } = renderHook(() => useStoredAnswerWait("msg_question"));
    expect(result.current).toBe("waiting");
    for (const [index, at] of readAgainAtMs.entries()) {
      act(() => vi.advanceTimersByTime(at - (readAgainAtMs[index - 1] ?? 0)));
      expect(refresh).toHaveBeenCalledTimes(index + 1);
    }
    expect(result.current).toBe("waiting");
    act(() => vi.advanceTimersByTime(giveUpAtMs - (readAgainAtMs.at(-1) ?? 0)));
    expect(result.current).toBe("none");
    act(() => vi.advanceTimersByTime(60_000));
    expect(refresh).toHaveBeenCalledTimes(readAgainAtMs.length);
  });

  it("stops reading once the answer is there, and starts afresh for another question", () => {
    const { result, rerender } = renderHook(({ key }) => useStoredAnswerWait(key), {
      initialProps: { key: "msg_first" as string | null },
    });
    act(() => vi.advanceTimersByTime(giveUpAtMs));
    expect(result.current).toBe("none");

    rerender({ key: "msg_second" });
    expect(result.current).toBe("waiting");
    const before = refresh.mock.calls.length;
    rerender({ key: null });
    expect(result.current).toBeNull();
    act(() => vi.advanceTimersByTime(60_000));
    expect(refresh).toHaveBeenCalledTimes(before);
  });
});
