/**
 * The app's security headers. Pages get a Content-Security-Policy with a fresh nonce per request
 * (set by the proxy: Next.js puts the nonce on its own scripts), and Strict-Transport-Security when the
 * app is served over https (read when the server runs; a browser keeps it for the whole host); every
 * response gets the rest (set in next.config.ts).
 */

/** 16 random bytes, base64: a nonce no page can guess. */
export function randomNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

export interface PolicyOptions {
  /** `next dev` evaluates code from strings for its fast refresh; a production build does not. */
  development: boolean;
  /** The Supabase project the browser signs in with and renews its session at, when configured. */
  supabaseUrl: string | null;
}

/**
 * Scripts only from this origin and with this request's nonce (and what they load); styles from
 * this origin and in style attributes (React and the PDF viewer place elements with them); the PDF
 * viewer's worker and the pages it draws as blobs; nothing framed, embedded or framing the app.
 */
export function contentSecurityPolicy(nonce: string, options: PolicyOptions): string {
  const connect = ["'self'", ...(options.supabaseUrl ? [options.supabaseUrl] : [])];
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": [
      "'self'",
      `'nonce-${nonce}'`,
      "'strict-dynamic'",
      ...(options.development ? ["'unsafe-eval'"] : []),
    ],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "blob:", "data:"],
    "font-src": ["'self'", "data:"],
    "connect-src": connect,
    "worker-src": ["'self'", "blob:"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}

/** Headers for every response, pages and route handlers alike. */
export const staticSecurityHeaders: ReadonlyArray<{ key: string; value: string }> = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
];

export const strictTransportSecurity = "max-age=63072000; includeSubDomains";
