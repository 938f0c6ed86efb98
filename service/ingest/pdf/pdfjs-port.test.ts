import { describe, expect, it } from "vitest";
import { createPortPair } from "./pdfjs-port.ts";

function receive(port: ReturnType<typeof createPortPair>[number]): unknown[] {
  const received: unknown[] = [];
  port.addEventListener("message", (event) => received.push(event.data));
  return received;
}

describe("the port between pdfjs's API and its worker code", () => {
  it("delivers a copy, in order, after the sender's current task", async () => {
    const [api, worker] = createPortPair();
    const received = receive(worker);
    const chunk = {
      items: [{ str: "Hello", transform: [1, 0, 0, 1, 72, 700] }],
      styles: { f1: { ascent: 0.8 } },
    };
    api.postMessage({ stream: 1, chunk });
    api.postMessage({ stream: 2 });
    // pdfjs reuses what it sent; the receiver must not see that.
    chunk.items[0]!.transform[4] = 0;
    chunk.items.length = 0;
    expect(received).toEqual([]);
    await Promise.resolve();
    await Promise.resolve();
    expect(received).toEqual([
      {
        stream: 1,
        chunk: {
          items: [{ str: "Hello", transform: [1, 0, 0, 1, 72, 700] }],
          styles: { f1: { ascent: 0.8 } },
        },
      },
      { stream: 2 },
    ]);
  });

  it("hands transferred buffers over, copies the others, and clones errors and maps the standard way", async () => {
    const [api, worker] = createPortPair();
    const received = receive(api);
    const transferred = new Uint8Array([1, 2, 3]);
    const kept = new Uint8Array([4, 5, 6]);
    const reason = new TypeError("bad xref");
    worker.postMessage({ transferred, kept, reason, fonts: new Map([["f1", 1]]) }, [transferred.buffer]);
    kept[0] = 9;
    await new Promise((resolve) => setTimeout(resolve, 0));
    const [message] = received as Array<{
      transferred: Uint8Array;
      kept: Uint8Array;
      reason: Error;
      fonts: Map<string, number>;
    }>;
    expect(message?.transferred).toBe(transferred);
    expect([...(message?.kept ?? [])]).toEqual([4, 5, 6]);
    expect(message?.reason).toBeInstanceOf(TypeError);
    expect(message?.reason.message).toBe("bad xref");
    expect(message?.fonts.get("f1")).toBe(1);
  });

  it("delivers later messages after a listener threw on one", async () => {
    const [api, worker] = createPortPair();
    const failures: unknown[] = [];
    const record = (reason: unknown) => failures.push(reason);
    process.on("unhandledRejection", record);
    const received: unknown[] = [];
    worker.addEventListener("message", (event) => {
      if (event.data === "bad") throw new Error("listener failed");
      received.push(event.data);
    });
    api.postMessage("bad");
    api.postMessage("good");
    await new Promise((resolve) => setTimeout(resolve, 10));
    process.off("unhandledRejection", record);
    expect(received).toEqual(["good"]);
    // The failure is not swallowed: it surfaces as the sender's unhandled rejection.
    expect(failures).toHaveLength(1);
  });

  it("stops delivering to a terminated end", async () => {
    const [api, worker] = createPortPair();
    const received = receive(worker);
    worker.terminate();
    api.postMessage("late");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(received).toEqual([]);
  });
});
