import { readFileSync } from "node:fs";
import { join } from "node:path";
import { reduceAnswerText } from "../sdk/core/index.ts";
import { answerQuestion } from "../service/answer/answer-question.ts";
import { defaultEngineSettings, type EngineSettings } from "../service/answer/extractive-engine.ts";
import { createAssistantIndexes } from "../service/index/assistant-indexes.ts";
import { createLogger } from "../service/logger.ts";
import { createPdfTokens } from "../service/pdf/pdf-token.ts";
import { openStore } from "../service/store/store.ts";
import { citedReferences, isCitationHit, onExpectedPage, type QaItem } from "./eval-scoring.ts";

const dataDir = process.argv[2]!;
const grid: Array<Partial<EngineSettings>> = JSON.parse(process.argv[3] ?? "[{}]");
const items = readFileSync("../shared/eval/qa-debian-docs.jsonl", "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as QaItem);
process.env.CKA_LOG = "quiet";
const store = await openStore({ pgliteDir: join(dataDir, "pglite") });
const [assistant] = await store.assistants.list();
const index = await createAssistantIndexes(store, createLogger("tune")).get(assistant!.id);
const tokens = createPdfTokens("x".repeat(40), 600);
for (const partial of grid) {
  const settings = { ...defaultEngineSettings, ...partial };
  const sessions = new Map<string, string>();
  let hits = 0,
    answerable = 0,
    cited = 0,
    onPage = 0,
    falseRefusals = 0,
    refusedUnanswerable = 0,
    unanswerable = 0;
  for (const item of items) {
    const session = item.follow_up_of ? sessions.get(item.follow_up_of)! : crypto.randomUUID();
    sessions.set(item.id, session);
    await store.sessions.owner(assistant!.id, session, "u");
    let text = "";
    for await (const line of answerQuestion(
      {
        assistantId: assistant!.id,
        session,
        user: "u",
        message: item.question,
        detail: "BALANCED",
        technicality: "BALANCED",
      },
      { store, index, tokens, settings },
    ))
      text += `${JSON.stringify(line)}\n`;
    const answer = reduceAnswerText(text);
    if (item.type === "answerable") {
      answerable++;
      const refs = citedReferences(answer);
      if (refs.some((r) => isCitationHit(r, item))) hits++;
      if (answer.refusal) falseRefusals++;
      cited += refs.length;
      onPage += refs.filter((r) => onExpectedPage(r, item)).length;
    } else {
      unanswerable++;
      if (answer.refusal) refusedUnanswerable++;
    }
  }
  console.log(
    JSON.stringify(partial),
    "hit",
    (hits / answerable).toFixed(3),
    "prec",
    (onPage / cited).toFixed(3),
    "falseRef",
    (falseRefusals / answerable).toFixed(3),
    "recall",
    (refusedUnanswerable / unanswerable).toFixed(3),
  );
}
await store.close();
