// The one-statement read path's answers written as they are (src/schema/sql-json/raw.ts), a Yoga plugin.
import type { ExecutionResult } from "graphql";
import type { Plugin } from "graphql-yoga";
import { rawDataOf } from "../schema/sql-json/raw";

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
