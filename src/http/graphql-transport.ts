// What reaches Yoga is a request it can read: a POST with a JSON (or GraphQL-over-HTTP) body, or a GET whose
// `variables` and `extensions` parameters are JSON. Anything else answers a GraphQL-shaped error naming the problem
// (Yoga would answer an empty 415, or a 500 for variables that do not parse).
import type { NextFunction, Request, Response } from "express";

const BODY_TYPES = ["application/json", "application/graphql-response+json", "application/*+json", "multipart/form-data"];

function refuse(res: Response, status: number, message: string, code: string): void {
  res.status(status).json({ errors: [{ message, extensions: { code, status } }] });
}

export function checkGraphQLTransport(req: Request, res: Response, next: NextFunction): void {
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
