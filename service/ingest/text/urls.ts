/** URL helpers: which link a block cites, where an image lives, whether a URL is a video. */

const VIDEO_HOSTS =
  /(^|\.)(youtube\.com|youtu\.be|youtube-nocookie\.com|vimeo\.com|dailymotion\.com|dai\.ly|twitch\.tv|wistia\.com|loom\.com|ted\.com|peertube\.[a-z.]+)$/u;
const VIDEO_FILES = /\.(mp4|m4v|webm|mov|mkv|ogv|avi|m3u8|mpd)$/iu;

/** The URL when `value` is an absolute http(s) URL, else null. */
export function httpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (!URL.canParse(trimmed)) return null;
  const { protocol } = new URL(trimmed);
  return protocol === "http:" || protocol === "https:" ? trimmed : null;
}

/** True for a page or file URL that plays a video (YouTube, Vimeo…, or a .mp4/.webm/… file). */
export function isVideoUrl(value: string | null | undefined): boolean {
  const url = httpUrl(value);
  if (!url) return false;
  const { hostname, pathname } = new URL(url);
  return VIDEO_HOSTS.test(hostname.toLowerCase()) || VIDEO_FILES.test(pathname);
}

/**
 * Where an image or link target lives, resolved against the page's URL when one is known: only an
 * absolute http(s) URL, else null. A host renders it, so `javascript:`, `data:`, `file:` and a path
 * with nothing to resolve it against are dropped here.
 */
export function resolveUrl(reference: string, base: string | null): string | null {
  const trimmed = reference.trim();
  if (trimmed === "") return null;
  return httpUrl(base && URL.canParse(trimmed, base) ? new URL(trimmed, base).href : trimmed);
}
