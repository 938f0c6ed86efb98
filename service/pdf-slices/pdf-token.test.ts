/** A PDF token is accepted only as the service wrote it: a signature spelled another way is refused. */
import { describe, expect, it } from "vitest";
import { createPdfTokens } from "./pdf-token.ts";

const tokens = createPdfTokens("a-secret-of-thirty-two-characters!", 600);
const claims = {
  assistant: "asst_token",
  reference: "ref_token",
  document: "doc_token",
  pages: [3],
  user: "u",
  session: "s",
};

/** The other spellings of a base64url string's last character that decode to the same bytes. */
function sameBytesSpellings(signature: string): string[] {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const bytes = Buffer.from(signature, "base64url");
  return [...alphabet]
    .map((character) => `${signature.slice(0, -1)}${character}`)
    .filter((spelling) => spelling !== signature && Buffer.from(spelling, "base64url").equals(bytes));
}

describe("PDF tokens", () => {
  it("accept the token as issued", () => {
    const { token } = tokens.issue(claims);
    expect(tokens.verify(token)).toMatchObject({ valid: true, expired: false, payload: claims });
  });

  it("refuse a signature spelled differently that decodes to the same bytes, or padded", () => {
    const { token } = tokens.issue(claims);
    const [body, signature] = token.split(".") as [string, string];
    const variants = sameBytesSpellings(signature);
    expect(variants.length).toBeGreaterThan(0);
    for (const variant of [...variants, `${signature}=`]) {
      expect(tokens.verify(`${body}.${variant}`), variant).toEqual({ valid: false });
    }
  });
});
