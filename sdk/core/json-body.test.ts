import { describe, expect, it } from "vitest";
import { z } from "zod";
import { HttpProblem } from "./http-problem.ts";
import { parseInput, readJsonBody } from "./json-body.ts";

const post = (body: BodyInit | null, type: string | null = "application/json") =>
  new Request("http://app.test/", {
    method: "POST",
    body,
    headers: type === null ? {} : { "Content-Type": type },
  });

async function failure(work: Promise<unknown>): Promise<HttpProblem> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof HttpProblem)) throw new Error(`expected an HttpProblem, got ${String(error)}`);
  return error;
}

describe("a JSON body at the edge", () => {
  it("reads a JSON object", async () => {
    expect(await readJsonBody(post('{"q":"x"}'), { maxBytes: 100 })).toEqual({ q: "x" });
  });

  it("refuses other content, broken JSON and a non-object with 400 invalid_request", async () => {
    for (const request of [post("q=x", "text/plain"), post("{"), post("[1]"), post("", "application/json")]) {
      const problem = await failure(readJsonBody(request, { maxBytes: 100 }));
      expect([problem.status, problem.code]).toEqual([400, "invalid_request"]);
    }
  });

  it("reads an empty body as {} only where every field is optional", async () => {
    expect(await readJsonBody(post(null, null), { maxBytes: 100, allowEmpty: true })).toEqual({});
    expect((await failure(readJsonBody(post(null, null), { maxBytes: 100 }))).status).toBe(400);
  });

  it("counts the bytes as they arrive: a body over the limit is 413, whatever Content-Length says", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`{"q":"${"x".repeat(200)}"}`));
        controller.close();
      },
    });
    const request = new Request("http://app.test/", {
      method: "POST",
      body: stream,
      headers: { "Content-Type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect((await failure(readJsonBody(request, { maxBytes: 100 }))).status).toBe(413);
  });

  it("parses with a schema: every issue, and text a database cannot store, is one 422 entry", () => {
    const schema = z.object({ q: z.string().min(2), n: z.int() });
    let problem: unknown;
    try {
      parseInput(schema, { q: "x", n: 1.5 });
    } catch (error) {
      problem = error;
    }
    expect(problem).toMatchObject({ status: 422, code: "invalid_input" });
    expect((problem as HttpProblem).errors?.map((error) => error.path)).toEqual(["q", "n"]);
    expect(() => parseInput(schema, { q: "a\u0000b", n: 1 })).toThrow(HttpProblem);
  });
});
