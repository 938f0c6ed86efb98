import { describe, expect, it } from "vitest";
import { violations } from "./response-checks.ts";

const ok = (body: string) => ({ status: 200, headers: new Headers({ "X-Request-ID": "req_1" }), body });

describe("the stack-trace check", () => {
  it.each([
    ["a Node frame", "Error: boom\n    at handle (/srv/service/http/app.ts:41:7)"],
    ["an async frame", '{"detail":"at async Promise.all (index 0) at async run (file:///srv/x.js:3:9)"}'],
    ["an anonymous frame", '{"detail":"at /srv/service/server.js:12:5"}'],
    ["Node internals", '{"detail":"node:internal/process/task_queues:95"}'],
    ["a dependency path", '{"detail":"/srv/node_modules/pg/lib/client.js"}'],
  ])("finds %s", (_, body) => {
    expect(violations(ok(body))).toContain("the body holds a stack trace or a source path");
  });

  it.each([
    ["a section title", '{"text":"7.1.1 Reporting lots of bugs at once (mass bug filing)"}'],
    ["prose with a parenthesis", '{"text":"set the terminal at startup (see below)"}'],
    ["a time", '{"text":"the mirror syncs at 06:00:00 (UTC)"}'],
  ])("leaves %s in a document's text alone", (_, body) => {
    expect(violations(ok(body))).toEqual([]);
  });
});
