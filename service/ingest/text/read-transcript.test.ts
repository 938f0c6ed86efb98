/** WebVTT and SRT transcripts: timed windows, clean sentences and video links. */
import { describe, expect, it } from "vitest";
import { SourceReadError } from "../types.ts";
import { readSrt, readWebVtt } from "./read-transcript.ts";
import { bytesOf, fixture, sentencesOf } from "./testing/text-fixtures.ts";

const lecture = (datasourceUrl: string | null = null) =>
  readWebVtt("lecture.vtt", fixture("lecture.vtt"), { datasourceUrl });
const interview = (datasourceUrl: string | null = null) =>
  readSrt("interview.srt", fixture("interview.srt"), { datasourceUrl });

describe("readWebVtt", () => {
  it("takes the title from the WEBVTT header line", () => {
    expect(lecture().title).toBe("Packaging for Debian, lecture 3");
  });

  it("groups cues into windows of about 30–60 seconds, split into sentences without markup", () => {
    const blocks = lecture().blocks;
    expect(blocks).toHaveLength(2);
    expect(sentencesOf(blocks[0])).toEqual([
      "Welcome back.",
      "Today we build a package.",
      "A source package has a debian folder with the control file.",
      "The control file names the package, its maintainer and its dependencies.",
      "We run dpkg-buildpackage to build it, which takes a minute.",
    ]);
    expect(sentencesOf(blocks[1])).toContain(
      "Signing matters when you upload to the archive & for reproducible checks.",
    );
    expect(blocks.flatMap(sentencesOf).join(" ")).not.toMatch(/color|NOTE|recorded later|position|<v/u);
  });

  it("cites the video named by a NOTE source line as video intervals", () => {
    expect(lecture().blocks.map((block) => block.evidence)).toEqual([
      { kind: "video_interval", startS: 0, endS: 33, url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" },
      { kind: "video_interval", startS: 34, endS: 64, url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" },
    ]);
  });

  it("drops captions repeated by rolling (auto-generated) cues", () => {
    const vtt =
      "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nwe install the package\n\n" +
      "00:00:03.000 --> 00:00:05.000\nwe install the package\nand then we test it\n";
    expect(sentencesOf(readWebVtt("auto.vtt", bytesOf(vtt), {}).blocks[0])).toEqual([
      "we install the package and then we test it",
    ]);
  });

  it("skips blocks that are not cues and says where", () => {
    const vtt =
      "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello.\n\nstray text\n\n00:00:03.000 --> 00:00:04.000\nBye.\n";
    const result = readWebVtt("odd.vtt", bytesOf(vtt), {});
    expect(result.blocks.flatMap(sentencesOf)).toEqual(["Hello.", "Bye."]);
    expect(result.warnings).toEqual(["1 block was not a valid cue and was skipped (line 6)."]);
  });

  it("refuses a file without any cue", () => {
    expect(() => readWebVtt("empty.vtt", bytesOf("WEBVTT\n\nNOTE nothing here\n"), {})).toThrow(
      SourceReadError,
    );
  });
});

describe("readSrt", () => {
  it("reads comma timestamps and strips <i> and {\\an8} markup", () => {
    const blocks = interview().blocks;
    expect(sentencesOf(blocks[0])).toEqual([
      "So you maintain the mirror network?",
      "Yes.",
      "We run forty mirrors across three continents.",
      "Each one syncs every six hours from the main archive.",
    ]);
  });

  it("ends a window at a long pause and gives transcript snippets without a video URL", () => {
    expect(interview().blocks.map((block) => block.evidence)).toEqual([
      { kind: "transcript_snippet", startS: 1.5, endS: 20.25 },
      { kind: "transcript_snippet", startS: 45, endS: 52 },
    ]);
  });

  it("cites the datasource URL when it is a video", () => {
    expect(interview("https://vimeo.com/123456").blocks[0]?.evidence).toEqual({
      kind: "video_interval",
      startS: 1.5,
      endS: 20.25,
      url: "https://vimeo.com/123456",
    });
    expect(interview("https://example.org/podcast/12").blocks[0]?.evidence.kind).toBe("transcript_snippet");
  });

  it("closes windows before 60 seconds in a long, continuous talk", () => {
    const cues = Array.from({ length: 40 }, (_, index) => {
      const start = index * 5;
      const time = (seconds: number) =>
        `00:${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")},000`;
      return `${index + 1}\n${time(start)} --> ${time(start + 5)}\nPoint number ${index} is made here.\n`;
    });
    const durations = readSrt("talk.srt", bytesOf(cues.join("\n")), {}).blocks.map((block) =>
      block.evidence.kind === "transcript_snippet" ? block.evidence.endS - block.evidence.startS : -1,
    );
    expect(durations.length).toBeGreaterThan(3);
    for (const duration of durations) expect(duration).toBeLessThanOrEqual(60);
    for (const duration of durations.slice(0, -1)) expect(duration).toBeGreaterThanOrEqual(30);
  });
});
