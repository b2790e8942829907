// The one-statement read path, part 3: its answer is JSON text (PostgreSQL's arrays written with their keys by
// ./write.ts), passed on without being parsed again.
// RawData stands for an operation's `data` in an ExecutionResult: /graphql writes its text into the response
// (src/yoga/use-raw-json-results.ts), REST routes take a root field's text (rawField) or the parsed value (rawDataOf(…).toJSON(),
// as `run` does). Code reading `data` as an object must go through rawDataOf: `data.report` is not there. Yoga's other
// result processors (SSE, multipart) serialise it with JSON.stringify, which gets the parsed value (toJSON).
import type { ExecutionResult } from "graphql";

export class RawData {
  /** Response key → that root field's JSON text, in the operation's order. */
  constructor(readonly fields: ReadonlyArray<readonly [string, string]>) {}

  /** The `data` object as JSON text. */
  get text(): string {
    return `{${this.fields.map(([key, json]) => `${JSON.stringify(key)}:${json}`).join(",")}}`;
  }

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

export const rawDataOf = (result: ExecutionResult): RawData | undefined => (result.data instanceof RawData ? result.data : undefined);

/** The JSON text of one root field of a result, when the one-statement path answered it. */
export function rawField(result: ExecutionResult, key: string): string | undefined {
  return rawDataOf(result)?.fields.find(([k]) => k === key)?.[1];
}
