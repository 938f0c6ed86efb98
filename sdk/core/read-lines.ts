/** Bytes of an NDJSON stream → numbered lines → JSON values, for any runtime with web streams. */
import { AnswerStreamError } from "./answer-stream-error.ts";
import { type ByteStream, openByteSource } from "./byte-source.ts";
import {
  createLineSplitter,
  type LineSplitter,
  type NdjsonLine,
  type NdjsonValue,
  parseNdjsonLine,
} from "./ndjson-lines.ts";

export interface ReadStreamOptions {
  /** Stops reading: the iteration rejects with `signal.reason` and the source is cancelled. */
  signal?: AbortSignal;
}

/**
 * Reads the non-blank lines of an NDJSON byte stream. Lines and UTF-8 characters split across
 * chunks are put back together; `\r\n` endings are accepted. Leaving the loop early (break,
 * throw, abort) cancels the source.
 *
 * @throws {AnswerStreamError} `invalid_encoding` for bytes that are not UTF-8, `truncated` when
 * the stream ends inside a character.
 *
 * @example
 * for await (const line of readLines(response.body!)) console.log(line.lineNumber, line.text);
 */
export async function* readLines(
  stream: ByteStream,
  options: ReadStreamOptions = {},
): AsyncGenerator<NdjsonLine, void, undefined> {
  const { signal } = options;
  const source = openByteSource(stream);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const splitter = createLineSplitter();
  try {
    while (true) {
      const chunk = await source.read(signal);
      const text = decode(decoder, chunk, splitter);
      const lines = chunk === null ? [...splitter.push(text), ...splitter.end()] : splitter.push(text);
      for (const line of lines) {
        signal?.throwIfAborted();
        yield line;
      }
      if (chunk === null) return;
    }
  } finally {
    await source.close(signal?.reason);
  }
}

/**
 * Reads an NDJSON byte stream as JSON values with their line numbers (see `readLines`).
 *
 * @throws {AnswerStreamError} `invalid_json` naming the line, `truncated` when the stream ends
 * inside a line, and the errors of `readLines`.
 *
 * @example
 * for await (const { value, lineNumber } of parseNdjson(response.body!)) console.log(lineNumber, value);
 */
export async function* parseNdjson(
  stream: ByteStream,
  options: ReadStreamOptions = {},
): AsyncGenerator<NdjsonValue, void, undefined> {
  for await (const line of readLines(stream, options)) yield parseNdjsonLine(line);
}

function decode(decoder: TextDecoder, chunk: Uint8Array | null, splitter: LineSplitter): string {
  try {
    return chunk === null ? decoder.decode() : decoder.decode(chunk, { stream: true });
  } catch (error) {
    const atEnd = chunk === null;
    throw new AnswerStreamError(
      atEnd ? "the stream ended inside a UTF-8 character" : "bytes are not valid UTF-8",
      {
        reason: atEnd ? "truncated" : "invalid_encoding",
        lineNumber: splitter.completedLines + 1,
        cause: error,
      },
    );
  }
}
