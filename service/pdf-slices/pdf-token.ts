/**
 * PDF tokens: opaque, HMAC-signed, short-lived credentials bound to one reference, user and session. The same
 * scheme serves an uploaded image read by OCR; such a token says `media: "image"` and opens only the image endpoint.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { randomId } from "../ids.ts";

const payloadSchema = z.object({
  v: z.literal(1),
  /** Token id, the key of refresh bookkeeping. */
  t: z.string(),
  assistant: z.string(),
  reference: z.string(),
  document: z.string(),
  /** Set on a token for an uploaded image (its pages are [0]); absent on a PDF's. */
  media: z.literal("image").optional(),
  /** Pages of the cited span; a slice may be asked for around any of them. */
  pages: z.array(z.int().min(0)).min(1),
  user: z.string(),
  session: z.string(),
  exp: z.int(),
  /** On a renewed token, the id of the token it renewed: a renewal is not renewed again. */
  renewal_of: z.string().optional(),
});

export type PdfTokenPayload = z.infer<typeof payloadSchema>;
export type PdfTokenClaims = Omit<PdfTokenPayload, "v" | "t" | "exp" | "renewal_of">;

export type VerifiedToken = { valid: true; expired: boolean; payload: PdfTokenPayload } | { valid: false };

export function createPdfTokens(secret: string, ttlSeconds: number, now: () => number = Date.now) {
  const sign = (body: string) => createHmac("sha256", secret).update(body).digest();

  const seal = (fields: Omit<PdfTokenPayload, "v" | "t" | "exp">) => {
    // Rounded up, so a token lives at least its TTL (rounding down left a 1 s TTL token 0–1 s).
    const exp = Math.ceil(now() / 1000) + ttlSeconds;
    const payload: PdfTokenPayload = { v: 1, t: randomId("tok", 16), ...fields, exp };
    const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
    return {
      token: `${body}.${sign(body).toString("base64url")}`,
      expires_at: new Date(exp * 1000).toISOString(),
    };
  };

  return {
    ttlSeconds,
    issue(claims: PdfTokenClaims): { token: string; expires_at: string } {
      return seal(claims);
    },
    /** A new token for the same claims, marked as the renewal of `payload`'s token. */
    renew(payload: PdfTokenPayload): { token: string; expires_at: string } {
      const { v: _version, t: id, exp: _expiry, renewal_of: _renewed, ...claims } = payload;
      return seal({ ...claims, renewal_of: id });
    },
    /** Checks the signature first; only an authentic token says whether it has expired. */
    verify(token: string): VerifiedToken {
      const [body, signature, extra] = token.split(".");
      if (!body || !signature || extra !== undefined) return { valid: false };
      // Compared as written, in constant time: base64url leaves spare bits in the last character (and
      // padding is optional), so comparing decoded bytes would accept several spellings of one token.
      const given = Buffer.from(signature);
      const expected = Buffer.from(sign(body).toString("base64url"));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { valid: false };
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
      } catch {
        return { valid: false };
      }
      const payload = payloadSchema.safeParse(decoded);
      if (!payload.success) return { valid: false };
      return { valid: true, expired: payload.data.exp * 1000 <= now(), payload: payload.data };
    },
  };
}

export type PdfTokens = ReturnType<typeof createPdfTokens>;
