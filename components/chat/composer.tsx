"use client";
/** The question box with the answer's detail and technicality; Enter asks, Shift+Enter breaks the line. */
import { type FormEvent, useState } from "react";
import { limits } from "@/sdk/core/index.ts";
import type { DetailLevel, TechnicalityLevel } from "@/sdk/core/wire.ts";

export interface Levels {
  detail: DetailLevel;
  technicality: TechnicalityLevel;
}

export interface ComposerProps {
  busy: boolean;
  /** Resolves to false when the question was not taken: the box gets it back. */
  onAsk(question: string, levels: Levels): Promise<boolean>;
  onStop(): void;
}

const detailLevels: Array<[DetailLevel, string]> = [
  ["SUCCINCT", "Succinct"],
  ["BALANCED", "Balanced"],
  ["DETAILED", "Detailed"],
];
const technicalityLevels: Array<[TechnicalityLevel, string]> = [
  ["SIMPLE", "Simple"],
  ["BALANCED", "Balanced"],
  ["TECHNICAL", "Technical"],
];

const selectClass =
  "rounded-md border border-stone-400 bg-white px-2 py-1 text-sm dark:border-stone-600 dark:bg-stone-900";

export function Composer({ busy, onAsk, onStop }: ComposerProps) {
  const [question, setQuestion] = useState("");
  const [detail, setDetail] = useState<DetailLevel>("BALANCED");
  const [technicality, setTechnicality] = useState<TechnicalityLevel>("BALANCED");
  const trimmed = question.trim();
  const tooLong = question.length > limits.messageLength.max;

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy || trimmed === "" || tooLong) return;
    setQuestion("");
    onAsk(trimmed, { detail, technicality }).then((taken) => {
      if (!taken) setQuestion((current) => (current === "" ? trimmed : current));
    });
  }

  return (
    <form
      onSubmit={submit}
      className="border-t border-stone-300 bg-white p-3 dark:border-stone-800 dark:bg-stone-900"
      aria-label="Ask a question"
    >
      <label htmlFor="composer-input" className="sr-only">
        Question
      </label>
      <textarea
        id="composer-input"
        data-testid="composer-input"
        value={question}
        rows={2}
        placeholder="Ask about your documents…"
        onChange={(event) => setQuestion(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
        }}
        aria-invalid={tooLong || undefined}
        aria-describedby="composer-hint"
        className="w-full resize-none rounded-lg border border-stone-400 bg-white px-3 py-2 dark:border-stone-600 dark:bg-stone-950"
      />
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <LevelSelect label="Detail" value={detail} options={detailLevels} onChange={setDetail} />
        <LevelSelect
          label="Technicality"
          value={technicality}
          options={technicalityLevels}
          onChange={setTechnicality}
        />
        <p
          id="composer-hint"
          className={`text-xs ${tooLong ? "text-red-700 dark:text-red-400" : "text-stone-600 dark:text-stone-400"}`}
        >
          {tooLong
            ? `${question.length - limits.messageLength.max} characters over the ${limits.messageLength.max} limit`
            : "Enter to ask, Shift+Enter for a new line"}
        </p>
        <div className="ml-auto">
          {busy ? (
            <button
              type="button"
              data-testid="stop-button"
              onClick={onStop}
              className="rounded-lg border border-red-700 px-4 py-1.5 font-semibold text-red-700 dark:border-red-400 dark:text-red-300"
            >
              Stop
            </button>
          ) : (
            <button
              type="submit"
              data-testid="send-button"
              disabled={trimmed === "" || tooLong}
              className="rounded-lg bg-blue-700 px-4 py-1.5 font-semibold text-white hover:bg-blue-800 disabled:opacity-50"
            >
              Ask
            </button>
          )}
        </div>
      </div>
    </form>
  );
}

interface LevelSelectProps<Level extends string> {
  label: string;
  value: Level;
  options: Array<[NoInfer<Level>, string]>;
  onChange(value: NoInfer<Level>): void;
}

function LevelSelect<Level extends string>({ label, value, options, onChange }: LevelSelectProps<Level>) {
  return (
    <label className="flex items-center gap-1 text-sm">
      {label}
      <select
        value={value}
        onChange={(event) => {
          const chosen = options.find(([option]) => option === event.target.value);
          if (chosen) onChange(chosen[0]);
        }}
        className={selectClass}
      >
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
