/**
 * Where a link may send the person after signing in: only a page of this app. `next` comes from a
 * link anyone could craft, and browsers drop tabs and newlines from a Location, so a path that only
 * looks local (`/\t/evil.example`) must not get through.
 */

/** Control characters, spaces and backslashes: a browser may read such a path as another host's. */
function unsafePath(path: string): boolean {
  return [...path].some((character) => {
    const code = character.charCodeAt(0);
    return code <= 0x20 || code === 0x7f || character === "\\";
  });
}

/** The absolute URL of `next` in this app, or `/chat` on `appOrigin` when it leads anywhere else. */
export function safeNextUrl(next: string | null, appOrigin: string): string {
  const origin = new URL(appOrigin).origin;
  const fallback = new URL("/chat", origin).href;
  if (next === null || !next.startsWith("/") || unsafePath(next)) return fallback;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    // Not a URL at all: the person still goes on to the chat.
    return fallback;
  }
  if (url.origin !== origin || url.pathname.startsWith("//")) return fallback;
  return url.href;
}
