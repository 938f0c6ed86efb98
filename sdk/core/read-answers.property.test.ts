import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AnswerState, createAnswerState } from "./answer-state.ts";
import { bytesOf, collect, iterableOf, splitAt, streamOf } from "./fixtures/fixture-streams.ts";
import { mergeAnswer } from "./merge-answer.ts";
import { readAnswers, reduceAnswerText } from "./read-answers.ts";

const messageId = "msg_4kT9xVb2QwLp7Rz";
// A small pool, so later lines often resend (and replace) a reference or claim seen before.
const referenceIds = ["ref_7Hq2mX9pLc", "ref_Bz4nT8wKe1", "ref_Qm5vR2sYd8", "ref_A1b2C3d4E5"] as const;

const textArbitrary = fc
  .array(
    fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 8 }),
      fc.constantFrom(
        "é",
        "中文",
        "😀",
        "👩‍💻",
        "\u2028",
        '"',
        "\\",
        "\n",
        "{{GIST:1}}",
        "{{CIT:ref_7Hq2mX9pLc}}",
      ),
    ),
    { maxLength: 5 },
  )
  .map((parts) => parts.join(""));

const coordinate = fc.integer({ min: 0, max: 8000 }).map((tenths) => tenths / 10);
const rectArbitrary = fc.tuple(coordinate, coordinate, coordinate, coordinate);

const referenceBase = {
  id: fc.constantFrom(...referenceIds),
  id_datasource: fc.constant("ds_Kx8fP2nQ4m"),
  id_document: fc.constant("doc_R1ntr0Pdf9"),
  title: textArbitrary,
  quote: textArbitrary,
  url: fc.constantFrom(null, "https://example.org/r-intro"),
  metadata: fc.record({ heading: textArbitrary }, { requiredKeys: [] }),
};

const pdfReference = fc.record({
  ...referenceBase,
  kind: fc.constant("pdf_highlight"),
  page_index: fc.nat(400),
  rects: fc.array(rectArbitrary, { maxLength: 3 }),
  bbox: rectArbitrary,
  page_width: fc.constantFrom(612, 595.28),
  page_height: fc.constantFrom(792, 841.89),
  spans: fc.array(
    fc.record({
      page_index: fc.nat(400),
      rects: fc.array(rectArbitrary, { maxLength: 2 }),
      page_width: fc.constant(612),
      page_height: fc.constant(792),
    }),
    { minLength: 1, maxLength: 2 },
  ),
  pdf: fc.record({
    token: fc.string({ minLength: 1, maxLength: 12 }),
    expires_at: fc.constant("2026-03-14T10:20:00Z"),
  }),
});

const otherReference = fc.oneof(
  fc.record({ ...referenceBase, kind: fc.constantFrom("paragraph", "image", "external_link") }),
  fc.record({
    ...referenceBase,
    kind: fc.constant("video_interval"),
    start_s: fc.nat(600),
    end_s: fc.nat(600),
  }),
  fc.record({
    ...referenceBase,
    kind: fc.constant("table"),
    columns: fc.array(textArbitrary, { maxLength: 3 }),
    rows: fc.array(fc.array(textArbitrary, { maxLength: 3 }), { maxLength: 2 }),
    chart_hint: fc.record({
      type: fc.constantFrom("bar", "none"),
      x: fc.constantFrom(null, "year"),
      y: fc.constant([]),
    }),
  }),
);

const claimArbitrary = fc.record({
  n: fc.integer({ min: 1, max: 6 }),
  text: textArbitrary,
  reference_ids: fc.subarray([...referenceIds]),
  support: fc.integer({ min: 0, max: 100 }).map((percent) => percent / 100),
});

const utteranceLine = fc.record(
  {
    type: fc.constant("utterance"),
    id_message: fc.constant(messageId),
    text: textArbitrary,
    claims: fc.array(claimArbitrary, { maxLength: 3 }),
    references: fc.array(fc.oneof(pdfReference, otherReference), { maxLength: 3 }),
    numbering: fc.dictionary(fc.constantFrom(...referenceIds), fc.integer({ min: 1, max: 9 }), {
      maxKeys: 3,
    }),
  },
  { requiredKeys: ["type", "id_message", "text"] },
);

const statusLine = fc.record({
  type: fc.constant("status"),
  stage: fc.constantFrom("retrieving", "reading", "composing", "verifying"),
  message: textArbitrary,
});

const activityLine = fc.record({
  type: fc.constant("activity"),
  name: fc.constantFrom("search", "read"),
  detail: fc.record({ query: textArbitrary, passages: fc.nat(50) }, { requiredKeys: [] }),
});

const unknownLine = fc.record({ type: fc.constantFrom("heartbeat", "trace"), at: fc.nat() });

const doneLine = fc.record({
  type: fc.constant("done"),
  id_message: fc.constant(messageId),
  refusal: fc.boolean(),
  usage: fc.record({ passages_read: fc.nat(50), ms: fc.nat(60_000) }),
});

const errorLine = fc.record({
  type: fc.constant("error"),
  error: fc.record({
    type: fc.constant("about:blank"),
    title: fc.constant("Unavailable"),
    status: fc.constantFrom(502, 503, 504),
    code: fc.constant("unavailable"),
    detail: textArbitrary,
    request_id: fc.constant("req_1"),
  }),
});

const blankLine = fc.constantFrom("\n", "\r\n", "  \n", "\t\r\n");
const lineEnding = fc.constantFrom("\n", "\r\n");

/** A valid answer stream as line objects, and its NDJSON text with random CRLF and blank lines. */
const answerStream = fc
  .tuple(
    fc.array(
      fc.tuple(
        fc.oneof(statusLine, activityLine, utteranceLine, utteranceLine, unknownLine),
        fc.array(blankLine, { maxLength: 2 }),
        lineEnding,
      ),
      { maxLength: 7 },
    ),
    fc.tuple(
      fc.oneof({ weight: 4, arbitrary: doneLine }, { weight: 1, arbitrary: errorLine }),
      fc.array(blankLine, { maxLength: 2 }),
      fc.constantFrom("", "\n", "\r\n"),
    ),
  )
  .map(([body, last]) => {
    const entries = [...body, last];
    return {
      lines: entries.map(([line]) => line as unknown),
      text: entries
        .map(([line, blanks, ending]) => `${blanks.join("")}${JSON.stringify(line)}${ending}`)
        .join(""),
    };
  });

const isKnown = (line: unknown) => !["heartbeat", "trace"].includes((line as { type: string }).type);

describe("readAnswers (property)", () => {
  it("reads any valid stream, however its bytes are chunked, to the answer of the whole text", async () => {
    await fc.assert(
      fc.asyncProperty(
        answerStream,
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.boolean(),
        async ({ lines, text }, rawOffsets, asIterable) => {
          const bytes = bytesOf(text);
          const chunks = splitAt(
            bytes,
            rawOffsets.map((offset) => offset % (bytes.length + 1)),
          );
          const answers = await collect(readAnswers(asIterable ? iterableOf(chunks) : streamOf(chunks)));
          const folded = lines.reduce<AnswerState>(
            (state, line) => mergeAnswer(state, line),
            createAnswerState(),
          );

          expect(answers.at(-1)).toEqual(reduceAnswerText(text));
          expect(answers.at(-1)).toEqual(folded);
          expect(answers).toHaveLength(lines.filter(isKnown).length);
        },
      ),
      { numRuns: 10_000 },
    );
  });
});
