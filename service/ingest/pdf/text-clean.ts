/** Text hygiene for extracted PDF text: characters the store rejects or a reader never sees. */

const DROP = -1;
const SPACE = 32;

// NUL and the other C0/C1 controls break PostgreSQL text columns; U+00AD (soft hyphen) and the
// zero-width marks are invisible on the rendered page and would split search terms.
function replacement(code: number): number {
  if (code === 9 || code === 10 || code === 13) return SPACE;
  if (code < 32 || (code >= 0x7f && code <= 0x9f)) return DROP;
  if (code === 0xad || (code >= 0x200b && code <= 0x200d) || code === 0x2060 || code === 0xfeff) return DROP;
  if (
    code === 0xa0 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  ) {
    return SPACE;
  }
  return code;
}

/** Removes invisible and control characters and turns tabs, line breaks and odd spaces into plain spaces. */
export function cleanText(text: string): string {
  let index = 0;
  while (index < text.length && replacement(text.charCodeAt(index)) === text.charCodeAt(index)) index++;
  if (index === text.length) return text;
  let cleaned = text.slice(0, index);
  for (; index < text.length; index++) {
    const code = replacement(text.charCodeAt(index));
    if (code !== DROP) cleaned += String.fromCharCode(code);
  }
  return cleaned;
}

export function countNonSpace(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) !== SPACE) count++;
  }
  return count;
}
