/** Generators of the values an attacker or an unlucky client sends: every string edge, near-miss ids, wrong types. */
import fc from "fast-check";

/** Strings that have broken parsers, databases, loggers and terminals somewhere. */
const edgeStrings: readonly string[] = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u0000".repeat(64),
  "\uD800",
  "\uDFFF",
  "a\uDC00b",
  "\uFFFE",
  "\uFFFF",
  "\u202Eevil",
  "\u200B",
  "\uFEFF",
  "\r\n",
  "\n\n\n",
  "\t",
  "\u0007\u0008\u000B\u000C",
  "\u001B[31mred\u001B[0m",
  "\u0085",
  "\u2028\u2029",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "👩‍👩‍👧‍👦",
  "e\u0301\u0301\u0301",
  "Überblick",
  "%00",
  "%",
  "%ZZ",
  "%2F",
  "../../etc/passwd",
  "..\\..\\windows",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "'; drop table documents; --",
  "$(reboot)",
  "{{7*7}}",
  "$" + "{7*7}",
  "null",
  "undefined",
  "NaN",
  "-1",
  "1e309",
  "__proto__",
  "constructor",
  "x".repeat(5_000),
  "é".repeat(40_000),
];

/** Any string, biased towards the edges above and towards control characters and lone surrogates. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...edgeStrings),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({
    unit: fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
    maxLength: 8,
  }),
  fc
    .tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...edgeStrings), fc.string({ maxLength: 12 }))
    .map(([before, edge, after]) => before + edge + after),
);

/** Variants of a valid identifier that a parser must not mistake for it, nor choke on. */
export function nearMisses(valid: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc
      .tuple(fc.nat(valid.length - 1), fc.string({ unit: "binary", minLength: 1, maxLength: 1 }))
      .map(([at, replacement]) => valid.slice(0, at) + replacement + valid.slice(at + 1)),
    fc.nat(valid.length - 1).map((length) => valid.slice(0, length)),
    hostileString.map((suffix) => valid + suffix),
    hostileString.map((prefix) => prefix + valid),
    fc.constantFrom(
      valid.toUpperCase(),
      ` ${valid}`,
      `${valid} `,
      `${valid}\u0000`,
      `${valid}/..`,
      valid.repeat(40),
    ),
  );
}

/** A JSON value of any shape: what a client sends when it gets the types wrong. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom(null, true, 0, -1, 1e308, "", [], {}),
);

/** Nested arrays `depth` deep: a body that exhausts a recursive parser or validator. */
export function deeplyNested(depth: number): string {
  return `${"[".repeat(depth)}${"]".repeat(depth)}`;
}

/** `base` with `field` replaced by a hostile value: strings, wrong types, or nothing at all. */
export function withHostileField(base: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.keys(base);
  return fc
    .tuple(fc.constantFrom(...fields), fc.oneof(hostileString, anyJson, fc.constant(undefined)))
    .map(([field, value]) => {
      const copy: Record<string, unknown> = { ...base };
      if (value === undefined) delete copy[field];
      else copy[field] = value;
      return copy;
    });
}

/** A percent-encoded path segment, or the raw hostile text where `fetch` would send it as is. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  hostileString.map((text) => encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, "\uFFFD"))),
  fc.constantFrom(
    "%00",
    "%ZZ",
    "%",
    "%C0%AF",
    "%E0%80%80",
    "%ED%A0%80",
    "%FF",
    "..",
    ".",
    "%2e%2e",
    "a%2Fb",
    "x".repeat(3_000),
  ),
);
