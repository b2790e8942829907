// The one-statement read path, part 3: its answer is JSON text (PostgreSQL's arrays written with their keys by
// ./write.ts), passed on without being parsed again.
// RawData stands for an operation's `data` in an ExecutionResult: /graphql writes its text into the response
// (useRawJsonResults), REST routes take a root field's text (rawField) or the parsed value (rawDataOf(…).toJSON(),
// as `run` does). Code reading `data` as an object must go through rawDataOf: `data.report` is not there. Yoga's other
// result processors (SSE, multipart) serialise it with JSON.stringify, which gets the parsed value (toJSON).
import type { ExecutionResult } from "graphql";
import type { Plugin } from "graphql-yoga";

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

// The media types Yoga's regular (single JSON body) result processor answers with, and how it picks one: the last
// match over the request's Accept entries (read in reverse, charset utf-8 only) × these types
// (graphql-yoga src/plugins/use-result-processor.ts, result-processor/accept.ts). Other processors (SSE,
// multipart) serialise the result themselves, through RawData.toJSON.
const REGULAR = ["application/graphql-response+json", "application/json"];

function regularMediaType(request: Request): string | undefined {
  const accepted = (request.headers.get("accept") || "*/*").replace(/\s/g, "").toLowerCase().split(",");
  const asked = accepted
    .map((entry) => entry.split(";"))
    .filter(([, ...params]) => (params.find((p) => p.includes("charset=")) ?? "charset=utf-8") === "charset=utf-8")
    .map(([type]) => type)
    .reverse();
  let chosen: string | undefined;
  for (const type of asked) {
    const [pre, suf] = type.split("/");
    for (const offered of REGULAR) {
      const [oPre, oSuf] = offered.split("/");
      if ((pre === "*" || pre === oPre) && (suf === "*" || suf === oSuf)) chosen = offered;
    }
  }
  return chosen;
}

/** Yoga plugin: a result whose data is RawData is answered with its text, as Yoga's own JSON answer would be. */
export function useRawJsonResults(): Plugin {
  return {
    onResultProcess({ request, result, setResultProcessor }) {
      const raw = Array.isArray(result) ? undefined : rawDataOf(result as ExecutionResult);
      if (!raw) return;
      const mediaType = regularMediaType(request);
      if (!mediaType) return;
      // extensions (the read's cost, src/schema/read-cost.ts) after the data, as Yoga's own JSON answer writes them.
      const extensions = (result as ExecutionResult).extensions;
      const body = extensions ? `{"data":${raw.text},"extensions":${JSON.stringify(extensions)}}` : `{"data":${raw.text}}`;
      setResultProcessor((_result, fetchAPI) => new fetchAPI.Response(body, { status: 200, headers: { "Content-Type": `${mediaType}; charset=utf-8` } }), mediaType);
    },
  };
}
