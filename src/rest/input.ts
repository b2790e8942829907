// Reading a REST request's input: JSON bodies (1 MiB, objects only, JSON content types only) and zod shape checks
// whose messages name the REST field.
import express, { type NextFunction, type Request, type Response } from "express";
import type { z } from "zod";
import { sendError } from "../http/errors";
import { formatIssues } from "../schema/validation";
import { RestError } from "./graphql";
import { restErrorMap } from "./schemas";

const JSON_TYPES = ["application/json", "application/*+json"];
const parseJson = express.json({ limit: "1mb", strict: false, type: JSON_TYPES });

/** A body that is not JSON is refused before it is read. An empty body is left to the route ("must be a JSON object"). */
function requireJsonType(req: Request, res: Response, next: NextFunction): void {
  const empty = req.headers["content-length"] === "0";
  if (!empty && req.is(JSON_TYPES) === false) return sendError(res, 415, "Unsupported Content-Type; send application/json");
  next();
}

/** Middleware of the routes that take a body. */
export const jsonBody = [requireJsonType, parseJson];

/** The request body as a JSON object, or a 400. */
export function bodyObject(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new RestError(400, "Request body must be a JSON object");
  return body as Record<string, unknown>;
}

/** Checks a value against a route schema: the parsed value, or a 400 naming the first wrong field. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value, { error: restErrorMap });
  if (!result.success) throw new RestError(400, formatIssues(result.error.issues));
  return result.data;
}
