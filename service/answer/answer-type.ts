/** What kind of answer a question expects, when its wording says so: a date, a quantity or a command. */

export type ExpectedAnswer = "date" | "number" | "command" | null;

const asksForDate = /\b(what|which|on what) (date|year|day)\b|(^|[.?!]\s+)when (is|was|will|were|did)\b/i;
const asksForNumber =
  /\b(how (many|much|long|large|big|far|often|old)|what (size|number|percentage|amount|version|port)|at most|at least|maximum|minimum)\b/i;

/** "How do I …", "Which command …": documentation answers these with a command, an option or a setting. */
const asksForCommand =
  /\bhow (do|can|could|should|would|to|does one)\b|\b(what|which) (command|option|flag|setting|tool|program|package|syntax|file)s?\b/i;

export function expectedAnswer(question: string): ExpectedAnswer {
  if (asksForDate.test(question)) return "date";
  if (asksForNumber.test(question)) return "number";
  if (asksForCommand.test(question)) return "command";
  return null;
}

const datePattern =
  /\b(1[89]\d\d|20\d\d)\b|\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(tember)?|oct(ober)?|nov(ember)?|dec(ember)?)\b/i;
const numberPattern = /\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|twelve|hundred|thousand)\b/i;

/** A command line, an option, a file path or a setting written out: what a "how do I" answer usually holds. */
const commandPattern =
  /(^|\s)([$#]\s|-{1,2}[a-z][\w-]*|[~.]?\/[\w.-]+\/|[\w-]+\(\d\)|[a-z][\w-]*\.[a-z][\w.-]+\s*=|[a-z_]+_[a-z_]+\b)/i;

/** Whether the text holds the kind of answer expected (a command question is answerable in prose too). */
export function satisfies(text: string, expected: ExpectedAnswer): boolean {
  if (expected === "date") return datePattern.test(text);
  if (expected === "number") return numberPattern.test(text);
  return true;
}

/** Whether the text holds the expected kind of answer itself, not merely its topic. */
export function gives(text: string, expected: ExpectedAnswer, yesNo: boolean): boolean {
  if (yesNo && verdictPattern.test(text)) return true;
  if (expected === "command") return commandPattern.test(text);
  if (expected === null) return false;
  return satisfies(text, expected);
}

/** Words that settle a yes/no question: a refusal, a limit, a requirement. */
const verdictPattern =
  /\b(not|no|never|cannot|can't|only|must|always|required|unsupported|supported|deprecated|obsolete|disabled|enabled|yes)\b/i;
