/** Names a question asks about that the sources never mention: the clearest sign that it cannot be answered. */
import { analyze } from "../index/analyzer.ts";
import { isEnglishWord } from "./english-vocabulary.ts";

/** Function words WordNet leaves out; none of them names anything. */
const functionWords = new Set(
  (
    "the a an and or but nor for so yet with without within from into onto upon about above below after before " +
    "between through during until since than then that this these those there their theirs them they what which " +
    "who whom whose when where why how would should could shall will must might may can been being was were " +
    "does did has have had its it's anything everything nothing something else each every either neither whether " +
    "while although though because unless toward towards among across along against per via"
  ).split(" "),
);

const wordPattern = /[\p{L}][\p{L}\p{N}+#.-]*[\p{L}\p{N}+#]|[\p{L}]/gu;

/**
 * Words that name a specific thing: capitalised inside the sentence ("WireGuard", "Jupyter", "PPA"),
 * or not an English word at all ("kubeadm", "xlsx").
 */
function specificNames(question: string): string[] {
  const names: string[] = [];
  for (const sentence of question.split(/(?<=[.?!])\s+/)) {
    const words = [...sentence.matchAll(wordPattern)].map((match) => match[0]);
    words.forEach((word, position) => {
      const capitalised = /^\p{Lu}/u.test(word) && (position > 0 || /\p{Lu}/u.test(word.slice(1)));
      if (word === "I" || word.length < 3 || functionWords.has(word.toLowerCase())) return;
      const parts = word.split(/[-.]/).filter((part) => part.length > 0);
      const unknownWord = parts.some(
        (part) => !functionWords.has(part.toLowerCase()) && !isEnglishWord(part),
      );
      if (capitalised || unknownWord) names.push(word);
    });
  }
  return names;
}

/** The specific names of the question that occur nowhere in the assistant's sources. */
export function unknownNames(question: string, documentFrequency: (term: string) => number): string[] {
  return specificNames(question).filter((name) => {
    const terms = analyze(name);
    return terms.length > 0 && terms.every((term) => documentFrequency(term) === 0);
  });
}
