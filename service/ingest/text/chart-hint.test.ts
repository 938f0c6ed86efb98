/** Chart hints a reader of a table would expect: line over dates, bar over categories, scatter, none. */
import { describe, expect, it } from "vitest";
import { chooseChartHint, columnType, parseNumber } from "./chart-hint.ts";

describe("chooseChartHint", () => {
  it("suggests a line chart for numbers over a date or year column", () => {
    expect(
      chooseChartHint(
        ["date", "requests"],
        [
          ["2025-01-01", "10"],
          ["2025-01-02", "12"],
        ],
      ),
    ).toEqual({
      type: "line",
      x: "date",
      y: ["requests"],
    });
    expect(
      chooseChartHint(
        ["Year", "Mirrors"],
        [
          ["2021", "30"],
          ["2022", "41"],
          ["2023", "44"],
        ],
      ),
    ).toMatchObject({
      type: "line",
      x: "Year",
    });
  });

  it("suggests a bar chart for numbers over a few categories", () => {
    const rows = [
      ["amd64", "1,200"],
      ["arm64", "640"],
      ["i386", "310"],
      ["arm64", "600"],
    ];
    expect(chooseChartHint(["arch", "downloads"], rows)).toEqual({
      type: "bar",
      x: "arch",
      y: ["downloads"],
    });
  });

  it("suggests a scatter plot for two numeric columns, never plotting an id", () => {
    const rows = [
      ["1", "12.5", "300"],
      ["2", "14.1", "340"],
      ["3", "9.8", "210"],
    ];
    expect(chooseChartHint(["id", "size_mb", "install_s"], rows)).toEqual({
      type: "scatter",
      x: "size_mb",
      y: ["install_s"],
    });
  });

  it("suggests nothing for text-only tables, a single row or one lone number column", () => {
    const none = { type: "none", x: null, y: [] };
    expect(
      chooseChartHint(
        ["command", "effect"],
        [
          ["apt purge", "removes config"],
          ["apt remove", "keeps it"],
        ],
      ),
    ).toEqual(none);
    expect(chooseChartHint(["day", "n"], [["2025-01-01", "1"]])).toEqual(none);
    const freeText = Array.from({ length: 30 }, (_, index) => [`unique description ${index}`, `${index}`]);
    expect(chooseChartHint(["note", "value"], freeText)).toEqual(none);
  });
});

describe("column types", () => {
  it("reads numbers as tables write them, not versions", () => {
    expect(["1,234.5", "$12", "45%", "(7)", "-3e2"].map(parseNumber)).toEqual([1234.5, 12, 45, -7, -300]);
    expect(["1.2.3", "v2", "", "12a"].map(parseNumber)).toEqual([null, null, null, null]);
  });

  it("recognises dates, months, quarters and times, tolerating missing values", () => {
    expect(columnType("when", ["2025-03-01T10:00:00Z", "2025-03-02", "n/a"])).toBe("date");
    expect(columnType("month", ["Jan 2024", "Feb 2024", "March 2024"])).toBe("date");
    expect(columnType("quarter", ["2024 Q1", "2024 Q2"])).toBe("date");
    expect(columnType("time", ["09:30", "10:45:10"])).toBe("date");
  });
});
