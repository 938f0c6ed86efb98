/** Decodes HTML character references: numeric ones, Latin-1 names and the common typographic names. */

// Names of U+00A0…U+00FF in code point order (the HTML 4 Latin-1 set).
const LATIN1 =
  "nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 " +
  "acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde " +
  "Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc " +
  "Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml " +
  "aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc " +
  "otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml";

const NAMED = new Map<string, string>([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
  ["ndash", "\u2013"],
  ["mdash", "\u2014"],
  ["lsquo", "\u2018"],
  ["rsquo", "\u2019"],
  ["sbquo", "\u201A"],
  ["ldquo", "\u201C"],
  ["rdquo", "\u201D"],
  ["bdquo", "\u201E"],
  ["hellip", "\u2026"],
  ["bull", "\u2022"],
  ["prime", "\u2032"],
  ["Prime", "\u2033"],
  ["trade", "\u2122"],
  ["euro", "\u20AC"],
  ["larr", "\u2190"],
  ["rarr", "\u2192"],
  ["uarr", "\u2191"],
  ["darr", "\u2193"],
  ["harr", "\u2194"],
  ["le", "\u2264"],
  ["ge", "\u2265"],
  ["ne", "\u2260"],
  ["asymp", "\u2248"],
  ["minus", "\u2212"],
  ["infin", "\u221E"],
  ["check", "\u2713"],
  ["dagger", "\u2020"],
  ["Dagger", "\u2021"],
  ["permil", "\u2030"],
  ["ensp", " "],
  ["emsp", " "],
  ["thinsp", " "],
  ["zwnj", ""],
  ["zwj", ""],
  ["lrm", ""],
  ["rlm", ""],
  ["OElig", "\u0152"],
  ["oelig", "\u0153"],
  ["Scaron", "\u0160"],
  ["scaron", "\u0161"],
  ["Yuml", "\u0178"],
  ["fnof", "\u0192"],
  ["circ", "\u02C6"],
  ["tilde", "\u02DC"],
]);
LATIN1.split(" ").forEach((name, offset) => {
  // A no-break space inside prose is just a space to a reader and to the index.
  NAMED.set(name, offset === 0 ? " " : String.fromCodePoint(0xa0 + offset));
});

/** Replaces `&amp;`, `&#39;`, `&#x2014;`, `&eacute;`… with their characters; unknown names stay as written. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(
    /&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});?/gu,
    (whole, body: string) => {
      if (body.startsWith("#")) {
        const codePoint =
          body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
        const valid = codePoint > 0 && codePoint <= 0x10ffff && (codePoint < 0xd800 || codePoint > 0xdfff);
        return valid ? String.fromCodePoint(codePoint) : "\uFFFD";
      }
      return NAMED.get(body) ?? whole;
    },
  );
}
