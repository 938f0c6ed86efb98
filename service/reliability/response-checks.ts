/**
 * The properties every answer must have, whatever was sent: no 5xx, no stack trace, problem details
 * with a request id for every refusal, well-formed stream lines, and an answer within the time limit.
 */
import { problemDetailsSchema } from "../../sdk/core/wire.ts";
import { budget } from "./budget.ts";
import { count, statusClass, type Tally } from "./tally.ts";

/**
 * Stack frames as Node prints them ("at name (/path/file.js:12:5)", "at /path/file.js:12:5"), and source
 * paths: none may reach a client. A frame needs its location, so a document's "bugs at once (mass bug
 * filing)" in a passage is not one.
 */
const stackTrace =
  /\bat [^\s()]*(?: [^\s()]+){0,3} ?\(?(?:file:\/\/|\/)[^\s()]*:\d+:\d+|node:internal|\.[cm]?[jt]sx?:\d+|node_modules/;

export interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

/** What is wrong with an answer, as sentences; empty when nothing is. */
export function violations(answer: Answer): string[] {
  const found: string[] = [];
  if (answer.status >= 500) found.push(`answered ${answer.status}`);
  if (stackTrace.test(answer.body)) found.push("the body holds a stack trace or a source path");
  const requestId = answer.headers.get("X-Request-ID");
  if (!requestId) found.push("no X-Request-ID header");
  if (answer.status >= 400) {
    const type = answer.headers.get("Content-Type") ?? "";
    if (!type.startsWith("application/problem+json"))
      found.push(`a ${answer.status} as ${type || "no type"}`);
    else {
      const problem = problemDetailsSchema.safeParse(parseJson(answer.body));
      if (!problem.success) found.push(`not problem details: ${answer.body.slice(0, 200)}`);
      else {
        if (problem.data.status !== answer.status) found.push("the problem's status is not the response's");
        if (problem.data.request_id !== requestId) found.push("request_id is not X-Request-ID");
      }
    }
  }
  if ((answer.headers.get("Content-Type") ?? "").startsWith("application/x-ndjson")) {
    for (const line of answer.body.split("\n").filter(Boolean)) {
      const parsed = parseJson(line) as { type?: unknown } | undefined;
      if (parsed === undefined) found.push(`a malformed stream line: ${line.slice(0, 200)}`);
      else if (parsed.type === "error")
        found.push(`the stream ended in an error line: ${line.slice(0, 300)}`);
    }
  }
  return found;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Makes a request with a deadline, reads the whole answer, counts it in `tally`, and returns it with
 * its violations. A request `fetch` itself refuses to send (a header it will not encode) is `null`.
 */
export async function send(
  tally: Tally,
  url: string,
  init: RequestInit,
): Promise<{ answer: Answer; problems: string[] } | null> {
  let response: Response;
  const signal = AbortSignal.timeout(budget.requestTimeoutMs);
  try {
    response = await fetch(url, { ...init, signal });
  } catch (error) {
    if (signal.aborted) {
      count(tally.requests, "hang");
      return { answer: { status: 0, headers: new Headers(), body: "" }, problems: ["no answer in time"] };
    }
    // fetch refuses to send some headers (control characters): nothing reached the service.
    const code =
      error instanceof TypeError && error.cause instanceof Error
        ? (error.cause as { code?: string }).code
        : undefined;
    if (error instanceof TypeError && (code === undefined || code === "UND_ERR_INVALID_ARG")) return null;
    count(tally.requests, "no response");
    return {
      answer: { status: 0, headers: new Headers(), body: "" },
      problems: [`no response: ${String(error)} ${String((error as Error).cause ?? "")}`],
    };
  }
  let body: string;
  try {
    body = await response.text();
  } catch (error) {
    count(tally.requests, signal.aborted ? "hang" : "no response");
    return {
      answer: { status: response.status, headers: response.headers, body: "" },
      problems: [`the body did not arrive: ${String(error)}`],
    };
  }
  const answer = { status: response.status, headers: response.headers, body };
  count(tally.requests, statusClass(answer.status));
  const problems = violations(answer);
  if (problems.some((problem) => problem.startsWith("a malformed stream line")))
    count(tally.requests, "malformed stream line");
  return { answer, problems };
}
