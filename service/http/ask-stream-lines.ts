/** An answer's events as the wire's NDJSON lines (CONTRACT: the ask stream), written once, at the edge. */
import type { AskStreamLine } from "../../sdk/core/wire.ts";
import type { AnswerEvent } from "../answer/answer-question.ts";
import { wireReference } from "./wire-reference.ts";

function askStreamLine(event: AnswerEvent): AskStreamLine {
  switch (event.type) {
    case "status":
      return { type: "status", stage: event.stage, message: event.message };
    case "search":
      return {
        type: "activity",
        name: "search",
        detail: { query: event.query, follow_up: event.followUp, passages: event.passages },
      };
    case "claim": {
      const { claim, citation } = event;
      return {
        type: "utterance",
        id_message: event.messageId,
        text: event.text,
        claims: [
          {
            n: claim.n,
            text: claim.text,
            reference_ids: [citation.id],
            support: claim.support,
            relevance: claim.relevance,
            verbatim: claim.verbatim,
          },
        ],
        references: event.firstCitation ? [wireReference(citation)] : [],
        numbering: event.firstCitation ? { [citation.id]: event.number } : {},
      };
    }
    case "refusal":
      return {
        type: "utterance",
        id_message: event.messageId,
        text: event.text,
        claims: [],
        references: [],
        numbering: {},
      };
    case "done":
      return {
        type: "done",
        id_message: event.messageId,
        refusal: event.refusal,
        usage: { passages_read: event.passagesRead, ms: event.ms },
      };
  }
}

export async function* askStreamLines(events: AsyncIterable<AnswerEvent>): AsyncGenerator<AskStreamLine> {
  for await (const event of events) yield askStreamLine(event);
}
