/**
 * Text a database can store as sent: PostgreSQL text cannot hold U+0000, and a lone surrogate has no
 * UTF-8 form (a driver would quietly store U+FFFD instead). The service and the host handler refuse it
 * at their edge with a 422 naming each field.
 */
const unstorable = /[\0\p{Cs}]/u;

export const unstorableTextMessage = "must not contain U+0000 or an unpaired surrogate";

export function isStorableText(text: string): boolean {
  return !unstorable.test(text);
}

/** Every string in a parsed JSON value that could not be stored as sent, by its dotted path. */
export function unstorableTextErrors(
  value: unknown,
  path: string[] = [],
): Array<{ path: string; message: string }> {
  if (typeof value === "string") {
    return isStorableText(value)
      ? []
      : [{ path: path.join(".") || "(body)", message: unstorableTextMessage }];
  }
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) => unstorableTextErrors(item, [...path, key]));
}
