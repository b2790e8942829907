// What reaches Yoga is a request it can read and answer: a POST with a JSON (or GraphQL-over-HTTP) body, or a GET
// whose `variables` and `extensions` parameters are JSON, asking (Accept) for a media type Yoga answers in. Anything
// else answers a GraphQL-shaped error naming the problem (Yoga would answer an empty 415, a 500 for variables that do
// not parse, or an empty 406 — after running the operation — for an Accept it cannot answer).
import type { NextFunction, Request, Response } from "express";

const BODY_TYPES = ["application/json", "application/graphql-response+json", "application/*+json", "multipart/form-data"];

/** The media types Yoga answers in: its JSON, server-sent events and multipart result processors. */
const ANSWERED = ["application/graphql-response+json", "application/json", "text/event-stream", "multipart/mixed"];

/**
 * Whether Yoga finds a result processor for this Accept header, as it chooses one: each entry in UTF-8 (or no
 * charset), its type or subtype possibly `*`, quality ignored (graphql-yoga result-processor/accept.ts).
 */
function answerable(accept: string | undefined): boolean {
  const entries = (accept || "*/*").replace(/\s/g, "").toLowerCase().split(",");
  return entries.some((entry) => {
    const [type = "", ...params] = entry.split(";");
    if ((params.find((p) => p.includes("charset=")) ?? "charset=utf-8") !== "charset=utf-8") return false;
    const [pre, suf] = type.split("/");
    return ANSWERED.some((offered) => {
      const [oPre, oSuf] = offered.split("/");
      return (pre === "*" || pre === oPre) && (suf === "*" || suf === oSuf);
    });
  });
}

function refuse(res: Response, status: number, message: string, code: string): void {
  res.status(status).json({ errors: [{ message, extensions: { code, status } }] });
}

export function checkGraphQLTransport(req: Request, res: Response, next: NextFunction): void {
  // A GET asking for HTML gets the GraphiQL page from Yoga.
  const page = req.method === "GET" && req.accepts("text/html") !== false && (req.headers.accept ?? "").includes("text/html");
  if (!page && !answerable(req.headers.accept)) {
    return refuse(res, 406, `Not Acceptable: this endpoint answers ${ANSWERED.join(", ")}; send one of them (or */*) in Accept`, "NOT_ACCEPTABLE");
  }
  if (req.method === "POST" && !req.is(BODY_TYPES)) {
    return refuse(res, 415, "Unsupported Content-Type; send application/json", "UNSUPPORTED_MEDIA_TYPE");
  }
  if (req.method === "GET") {
    for (const name of ["variables", "extensions"]) {
      const value = req.query[name];
      if (value === undefined) continue;
      let parsed: unknown;
      try {
        parsed = typeof value === "string" ? JSON.parse(value) : undefined;
      } catch {
        parsed = undefined;
      }
      if (parsed === undefined || (parsed !== null && (typeof parsed !== "object" || Array.isArray(parsed)))) {
        return refuse(res, 400, `${name} must be a JSON object`, "BAD_REQUEST");
      }
    }
  }
  next();
}
