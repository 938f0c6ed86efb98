import { describe, expect, it } from "vitest";
import { HttpProblem } from "./http-problem.ts";
import { assertSameOrigin, newRequestId, requestIdFor } from "./request-edge.ts";

describe("request ids", () => {
  it("are one word a person can double-click and quote, and differ each time", () => {
    const ids = Array.from({ length: 50 }, newRequestId);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("echo a caller's safe X-Request-ID and replace anything else", () => {
    const withId = (id: string) => new Request("http://app.test/", { headers: { "X-Request-ID": id } });
    expect(requestIdFor(withId("req_host.1:a-b"))).toBe("req_host.1:a-b");
    expect(requestIdFor(withId("<script>"))).toMatch(/^req_[0-9a-f]{24}$/);
    expect(requestIdFor(withId("x".repeat(129)))).toMatch(/^req_[0-9a-f]{24}$/);
  });
});

describe("the same-origin check", () => {
  const request = (method: string, origin?: string) =>
    new Request("http://app.test/api", { method, headers: origin ? { Origin: origin } : {} });

  it("lets reads through from anywhere and changes only from the app's own origin", () => {
    expect(() =>
      assertSameOrigin(request("GET", "https://evil.example"), ["https://app.test"]),
    ).not.toThrow();
    expect(() => assertSameOrigin(request("POST", "https://app.test"), ["https://app.test"])).not.toThrow();
  });

  it("refuses a change from another origin, or without one, with 403", () => {
    for (const origin of ["https://evil.example", undefined]) {
      let thrown: unknown;
      try {
        assertSameOrigin(request("DELETE", origin), ["https://app.test"]);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(HttpProblem);
      expect((thrown as HttpProblem).status).toBe(403);
    }
  });

  it("says which origin a refused change came from and which one the app takes, so a developer can fix it", () => {
    let thrown: unknown;
    try {
      assertSameOrigin(request("POST", "http://127.0.0.1:3000"), ["http://localhost:3000"]);
    } catch (error) {
      thrown = error;
    }
    expect((thrown as HttpProblem).message).toBe(
      "This request came from http://127.0.0.1:3000, but changes are taken only from the app's own origin, http://localhost:3000. Open the app at that address, or add this origin to allowedOrigin.",
    );
  });
});
