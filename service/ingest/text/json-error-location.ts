/** Finds where JSON text first goes wrong, as a line, a column and a plain-language problem. */

export interface JsonProblem {
  line: number;
  column: number;
  problem: string;
}

const MAX_DEPTH = 2000;

/** Thrown inside the scanner to unwind to the first problem; never leaves this module. */
class JsonStop extends Error {
  readonly offset: number;
  readonly problem: string;
  constructor(offset: number, problem: string) {
    super(problem);
    this.offset = offset;
    this.problem = problem;
  }
}

/**
 * Scans `text` as JSON and returns the first syntax problem, or null when it is valid.
 * Used after `JSON.parse` fails, because engine messages do not always give a position.
 */
export function findJsonProblem(text: string): JsonProblem | null {
  let position = 0;
  const fail = (problem: string, at = position): never => {
    throw new JsonStop(at, problem);
  };
  const skipSpace = () => {
    while (position < text.length && " \t\n\r".includes(text.charAt(position))) position += 1;
  };
  const expect = (character: string, problem: string) => {
    skipSpace();
    if (text[position] !== character) fail(position >= text.length ? "the file ends too early" : problem);
    position += 1;
  };
  const readString = () => {
    const start = position;
    position += 1;
    for (;;) {
      if (position >= text.length) fail("a text value in quotes is never closed", start);
      const character = text.charAt(position);
      if (character === '"') break;
      if (character === "\n") fail("a text value in quotes runs past the end of the line", start);
      if (character < " ") fail("a text value contains a control character");
      if (character === "\\") {
        const escaped = text.charAt(position + 1);
        const valid =
          escaped === "u"
            ? /^[0-9a-fA-F]{4}$/u.test(text.slice(position + 2, position + 6))
            : escaped !== "" && '"\\/bfnrt'.includes(escaped);
        if (!valid) fail("a backslash escape is not valid");
        position += escaped === "u" ? 6 : 2;
        continue;
      }
      position += 1;
    }
    position += 1;
  };
  const readValue = (depth: number): void => {
    skipSpace();
    if (depth > MAX_DEPTH) fail("the data is nested too deeply");
    const character = text[position];
    if (character === undefined) fail("the file ends too early");
    else if (character === "{") {
      position += 1;
      skipSpace();
      if (text[position] === "}") {
        position += 1;
        return;
      }
      for (;;) {
        skipSpace();
        if (text[position] !== '"')
          fail(text[position] === undefined ? "the file ends too early" : "expected a key in double quotes");
        readString();
        expect(":", "expected ':' after a key");
        readValue(depth + 1);
        skipSpace();
        if (text[position] === ",") position += 1;
        else if (text[position] === "}") break;
        else
          fail(
            text[position] === undefined ? "the file ends too early" : "expected ',' or '}' after a value",
          );
      }
      position += 1;
    } else if (character === "[") {
      position += 1;
      skipSpace();
      if (text[position] === "]") {
        position += 1;
        return;
      }
      for (;;) {
        readValue(depth + 1);
        skipSpace();
        if (text[position] === ",") position += 1;
        else if (text[position] === "]") break;
        else
          fail(
            text[position] === undefined ? "the file ends too early" : "expected ',' or ']' after a value",
          );
      }
      position += 1;
    } else if (character === '"') {
      readString();
    } else {
      const literal = /^(-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?|true|false|null)/u.exec(
        text.slice(position, position + 400),
      );
      if (!literal) fail(`unexpected "${character}" where a value should be`);
      position += literal?.[0].length ?? 0;
    }
  };
  try {
    readValue(0);
    skipSpace();
    if (position < text.length) fail("there is more text after the end of the data");
    return null;
  } catch (error) {
    if (!(error instanceof JsonStop)) throw error;
    return { ...lineAndColumn(text, error.offset), problem: error.problem };
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: offset - lineStart + 1 };
}
