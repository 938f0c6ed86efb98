/** What kind of answer a question expects, when its wording says so: a date or a quantity. */

export type ExpectedAnswer = "date" | "number" | null;

const asksForDate = /\b(what|which|on what) (date|year|day)\b|(^|[.?!]\s+)when (is|was|will|were|did)\b/i;
const asksForNumber =
  /\b(how (many|much|long|large|big|far|often|old)|what (size|number|percentage|amount|version|port)|at most|at least|maximum|minimum)\b/i;

export function expectedAnswer(question: string): ExpectedAnswer {
  if (asksForDate.test(question)) return "date";
  if (asksForNumber.test(question)) return "number";
  return null;
}

const datePattern =
  /\b(1[89]\d\d|20\d\d)\b|\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(tember)?|oct(ober)?|nov(ember)?|dec(ember)?)\b/i;
const numberPattern = /\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|twelve|hundred|thousand)\b/i;

export function satisfies(text: string, expected: ExpectedAnswer): boolean {
  if (expected === "date") return datePattern.test(text);
  if (expected === "number") return numberPattern.test(text);
  return true;
}
