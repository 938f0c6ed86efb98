"use client";
/** Around an answer's text: the service's status while it works, a refusal, a stopped or broken answer. */
import type { ReactNode } from "react";
import type { AnswerState } from "../core/index.ts";

export interface AnswerNoticesProps {
  answer: AnswerState;
  partial: boolean;
  refused: boolean;
  children: ReactNode;
}

export function AnswerNotices({ answer, partial, refused, children }: AnswerNoticesProps) {
  // A stopped answer was saved mid-stream: the service is no longer working on it.
  const working = answer.phase === "streaming" && !partial;
  return (
    <>
      {/* One wrapper in every phase, so the text keeps its DOM nodes when the answer turns out a refusal. */}
      <div
        className={refused ? "cited-refusal" : "cited-answer__body"}
        role={refused ? "note" : undefined}
        data-testid={refused ? "cited-refusal" : undefined}
      >
        {refused ? (
          <p className="cited-refusal__title">
            <span aria-hidden="true" className="cited-refusal__icon">
              ∅
            </span>
            Not in the sources
          </p>
        ) : null}
        {children}
      </div>
      <p className="cited-status" role="status" data-testid="cited-status">
        {working ? (
          <>
            <span className="cited-spinner" aria-hidden="true" />
            {answer.status?.message ?? "Starting…"}
          </>
        ) : null}
      </p>
      {answer.phase === "error" ? (
        <div className="cited-notice cited-notice--error" role="alert" data-testid="cited-answer-error">
          <p>
            {answer.error?.detail ?? answer.error?.title ?? "The answer broke off."} The text above is
            incomplete.
          </p>
          {answer.error?.request_id ? (
            <p className="cited-muted">Request id: {answer.error.request_id}</p>
          ) : null}
        </div>
      ) : partial ? (
        <p className="cited-notice" data-testid="cited-answer-partial">
          Stopped: the answer above is incomplete.
        </p>
      ) : null}
    </>
  );
}
