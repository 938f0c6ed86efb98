/** Rectangles and affine maps in displayed page space (PDF points, top-left origin). */
import type { Rect } from "../../../sdk/core/wire.ts";

export type { Rect };

/** An affine transform `[a, b, c, d, e, f]` as PDF writes it: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type Matrix = readonly [number, number, number, number, number, number];

export function applyMatrix(matrix: Matrix, x: number, y: number): [number, number] {
  const [a, b, c, d, e, f] = matrix;
  return [a * x + c * y + e, b * x + d * y + f];
}

/** The linear part of a transform applied to a direction vector (no translation). */
export function applyLinear(matrix: Matrix, x: number, y: number): [number, number] {
  const [a, b, c, d] = matrix;
  return [a * x + c * y, b * x + d * y];
}

export function unionRect(first: Rect | null, second: Rect): Rect {
  if (first === null) return [second[0], second[1], second[2], second[3]];
  return [
    Math.min(first[0], second[0]),
    Math.min(first[1], second[1]),
    Math.max(first[2], second[2]),
    Math.max(first[3], second[3]),
  ];
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

export function roundRect(rect: Rect): Rect {
  return [round2(rect[0]), round2(rect[1]), round2(rect[2]), round2(rect[3])];
}

export function rectWidth(rect: Rect): number {
  return rect[2] - rect[0];
}

export function rectHeight(rect: Rect): number {
  return rect[3] - rect[1];
}
