/** PGlite and pg both return jsonb as parsed values; a text column of JSON is parsed here. */
export function json<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}
