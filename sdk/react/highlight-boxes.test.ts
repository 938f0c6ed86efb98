import { describe, expect, it } from "vitest";
import { highlightBoxes } from "./highlight-boxes.ts";

describe("highlight boxes", () => {
  it("scales each line's rect to the rendered width and covers the whole line", () => {
    const [box] = highlightBoxes([[72, 100, 540, 110]], 612, 918);
    expect(box!.left).toBeCloseTo(108);
    expect(box!.width).toBeCloseTo(702);
    expect(box!.top).toBeCloseTo(150 - 1.5);
    expect(box!.height).toBeCloseTo(15 + 3);
  });

  it("never grows a line's box into the next line's, so stacked lines do not overlap", () => {
    const boxes = highlightBoxes(
      [
        [72, 100, 540, 110],
        [72, 111, 540, 121],
      ],
      612,
      612,
    );
    expect(boxes[0]!.top + boxes[0]!.height).toBeLessThanOrEqual(boxes[1]!.top + 1e-9);
    expect(boxes[0]!.top).toBeCloseTo(99);
    expect(boxes[1]!.top + boxes[1]!.height).toBeCloseTo(122);
  });

  it("lets two pieces of one line (a gap between words) grow independently", () => {
    const boxes = highlightBoxes(
      [
        [72, 100, 300, 110],
        [320, 100, 540, 110],
      ],
      612,
      612,
    );
    expect(boxes.map((box) => box.height)).toEqual([12, 12]);
  });
});
