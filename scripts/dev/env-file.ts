/**
 * Reads and rewrites a dotenv file (`.env.local`) for a few keys: every other line, comment and blank line
 * stays exactly as the user wrote it, so `npm run dev` can be run again and again over a hand-edited file.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";

/** `KEY=value`, optionally `export KEY=value`, as dotenv (and so Next.js) reads it. */
const assignmentPattern = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

/** A value as dotenv reads it: quotes removed, and for an unquoted value a trailing ` # comment` too. */
function parseValue(raw: string): string {
  const quoted = /^(["'`])(.*)\1\s*(?:#.*)?$/.exec(raw);
  if (quoted) return quoted[2]!;
  return raw.replace(/\s+#.*$/, "").trim();
}

function parseAssignment(line: string): { key: string; value: string } | null {
  const match = assignmentPattern.exec(line);
  return match ? { key: match[1]!, value: parseValue(match[2]!) } : null;
}

/** The values the file assigns; when a key repeats, the last one wins, as in dotenv. */
export function readEnvValues(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const assignment = parseAssignment(line);
    if (assignment) values.set(assignment.key, assignment.value);
  }
  return values;
}

/**
 * The file with each of `values` set: the first line assigning a key is replaced in place (left untouched
 * when it already holds the value), later lines assigning it are dropped (dotenv would let them win), and
 * keys the file lacks are added under `heading`: at the end of the block an earlier run began with it, or
 * in a new block at the end of the file.
 */
export function rewriteEnvText(text: string, values: Record<string, string>, heading: string): string {
  const lineEnd = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text === "" ? [] : text.replace(/\r?\n$/, "").split(/\r?\n/);
  const written = new Set<string>();
  const kept: string[] = [];
  for (const line of lines) {
    const assignment = parseAssignment(line);
    const wanted = assignment ? values[assignment.key] : undefined;
    if (!assignment || wanted === undefined) {
      kept.push(line);
      continue;
    }
    if (written.has(assignment.key)) continue;
    written.add(assignment.key);
    kept.push(assignment.value === wanted ? line : `${assignment.key}=${wanted}`);
  }
  const missing = Object.entries(values)
    .filter(([key]) => !written.has(key))
    .map(([key, value]) => `${key}=${value}`);
  if (missing.length === 0) return `${kept.join(lineEnd)}${lineEnd}`;
  // A key added in a later version joins the block an earlier run wrote, instead of a second heading.
  const headingAt = kept.indexOf(`# ${heading}`);
  if (headingAt !== -1) {
    const blockEnd = kept.findIndex((line, index) => index > headingAt && line.trim() === "");
    kept.splice(blockEnd === -1 ? kept.length : blockEnd, 0, ...missing);
  } else {
    if (kept.length > 0 && kept.at(-1)?.trim() !== "") kept.push("");
    kept.push(`# ${heading}`, ...missing);
  }
  return `${kept.join(lineEnd)}${lineEnd}`;
}

export function readEnvFile(path: string): string {
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

/** Written readable by its owner only: the file holds an API key and a signing secret. */
export function writeEnvFile(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}
