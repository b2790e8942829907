// Checks on a generated summary (docs/api.md "AI-generated summaries"): the fair-housing phrase screen, grounding
// (every number in the text appears in the inputs) and the word limits of each length.
import phrases from "./fair-housing.json";
import { screenForm } from "./normalise";

export const SUMMARY_LENGTHS = ["short", "standard", "long"] as const;
export type SummaryLength = (typeof SUMMARY_LENGTHS)[number];

/** The most words a summary of each length may have. */
export const WORD_LIMITS: Record<SummaryLength, number> = { short: 60, standard: 150, long: 300 };

export const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

export interface FlaggedPhrase {
  phrase: string;
  reason: string;
  alternative: string;
}

/** The shipped fair-housing list (42 U.S.C. §3604(c)): fair-housing.json, shown in the README. */
export const FAIR_HOUSING_PHRASES: readonly FlaggedPhrase[] = phrases;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// Phrase and text are compared in the screen's form (normalise.ts: case, look-alike letters, invisible characters,
// accents and dashes do not hide a phrase), on word boundaries; a space or hyphen in a phrase matches any run of
// spaces and hyphens ("master  bedroom", "family friendly").
const PATTERNS = FAIR_HOUSING_PHRASES.map(({ phrase }) => ({
  phrase,
  pattern: new RegExp(`(?<![\\w])${screenForm(phrase).split(/[\s-]+/).map(escape).join("[\\s-]+")}(?![\\w])`),
}));

/** The listed phrases the text contains, in the list's order (as the list writes them, whatever the text's disguise). */
export function flaggedPhrases(text: string): string[] {
  const form = screenForm(text);
  return PATTERNS.filter(({ pattern }) => pattern.test(form)).map(({ phrase }) => phrase);
}

// A number as written: 1850, 1,850, 2.5, $350,000; a scale word after it makes 1.2 million read 1200000 too.
const NUMBER = /\d+(?:,\d{3})*(?:\.\d+)?(?:\s*(million|billion|thousand|k|m|mm|bn)\b)?/gi;
const SCALE: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, mm: 1e6, billion: 1e9, bn: 1e9 };

interface Written {
  text: string;
  values: number[];
}

function numbersWritten(text: string): Written[] {
  return [...text.matchAll(NUMBER)].map((match) => {
    const digits = match[0].replace(/[^\d.,]+$/, "").trim();
    const value = Number(digits.replace(/,/g, ""));
    const scale = match[1] ? SCALE[match[1].toLowerCase()] : undefined;
    return { text: match[1] ? match[0] : digits, values: scale ? [value, value * scale] : [value] };
  });
}

/** Every number of the inputs: numeric values, and the numbers written in their texts (an address, feedback). */
export function inputNumbers(inputs: unknown): Set<number> {
  const found = new Set<number>();
  const stack: unknown[] = [inputs];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === "number") found.add(value);
    else if (typeof value === "string") for (const written of numbersWritten(value)) written.values.forEach((v) => found.add(v));
    else if (value && typeof value === "object") stack.push(...Object.values(value));
  }
  return found;
}

/** The numbers of the text that appear nowhere in the inputs, as written, each once. */
export function ungroundedNumbers(text: string, known: Set<number>): string[] {
  const ungrounded = numbersWritten(text)
    .filter((written) => !written.values.some((v) => known.has(v)))
    .map((written) => written.text);
  return [...new Set(ungrounded)];
}

/** The warnings of a text: its flagged phrases, then its ungrounded numbers. */
export const screenWarnings = (text: string, known: Set<number>): string[] => [
  ...flaggedPhrases(text).map((phrase) => `fair_housing:${phrase}`),
  ...ungroundedNumbers(text, known).map((n) => `ungrounded_number:${n}`),
];

/** The text's first sentences that fit in `limit` words (at least the words of the first, cut with an ellipsis). */
export function withinWords(text: string, limit: number): string {
  if (wordCount(text) <= limit) return text;
  const sentences = text.match(/[^.!?]+(?:[.!?]+["”’)]*|$)\s*/g) ?? [text];
  let kept = "";
  for (const sentence of sentences) {
    if (wordCount(kept + sentence) > limit) break;
    kept += sentence;
  }
  if (kept.trim()) return kept.trim();
  return `${text.split(/\s+/).filter(Boolean).slice(0, limit).join(" ")}…`;
}
