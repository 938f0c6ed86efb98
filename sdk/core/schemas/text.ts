/** Text bounds counted in Unicode characters (code points), as JSON Schema counts them. */
import { z } from "zod";

export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** A string of `min` to `max` characters; an emoji counts as one character, not two UTF-16 units. */
export function boundedText(field: string, min: number, max: number) {
  return z
    .string()
    .check((context) => {
      const count = characterCount(context.value);
      if (count < min) {
        context.issues.push({
          code: "too_small",
          origin: "string",
          minimum: min,
          inclusive: true,
          input: context.value,
          message: `${field} must be ${min} to ${max} characters (got ${count})`,
        });
      } else if (count > max) {
        context.issues.push({
          code: "too_big",
          origin: "string",
          maximum: max,
          inclusive: true,
          input: context.value,
          message: `${field} must be ${min} to ${max} characters (got ${count})`,
        });
      }
    })
    .meta({ minLength: min, maxLength: max });
}
