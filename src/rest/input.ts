// Reading a REST request's input: JSON bodies (1 MiB, objects only, JSON content types only) and query parameters,
// parsed strictly (docs/api.md "Robustness"). Values are only shaped here; the GraphQL schema checks them.
import express, { type NextFunction, type Request, type Response } from "express";
import type { Context } from "../context";
import { sendError } from "../http/errors";
import { jsonDepth } from "../http/nesting";
import { restToInput, type FieldTable } from "../schema/fields";
import { RestError, run, type Operation } from "./graphql";

const JSON_TYPES = ["application/json", "application/*+json"];
const parseJson = express.json({ limit: "1mb", strict: false, type: JSON_TYPES });

/** A body that is not JSON is refused before it is read. An empty body is left to the route ("must be a JSON object"). */
function requireJsonType(req: Request, res: Response, next: NextFunction): void {
  const empty = req.headers["content-length"] === "0";
  if (!empty && req.is(JSON_TYPES) === false) return sendError(res, 415, "Unsupported Content-Type; send application/json");
  next();
}

/** JSON nested deeper than any body of this API: refused before anything walks it recursively. */
const MAX_DEPTH = 32;

function limitDepth(req: Request, res: Response, next: NextFunction): void {
  if (jsonDepth(req.body, MAX_DEPTH) > MAX_DEPTH) return sendError(res, 400, `Request body is nested more than ${MAX_DEPTH} levels deep`);
  next();
}

/** Middleware of the routes that take a body. */
export const jsonBody = [requireJsonType, parseJson, limitDepth];

const CSV_TYPES = ["text/csv"];
const IMPORT_LIMIT = "4mb";

/** The engagement import's body: JSON or CSV (kept as bytes, decoded by the route), up to 4 MiB. */
export const importBody = [
  (req: Request, res: Response, next: NextFunction): void => {
    const empty = req.headers["content-length"] === "0";
    if (!empty && req.is([...JSON_TYPES, ...CSV_TYPES]) === false) return sendError(res, 415, "Unsupported Content-Type; send application/json or text/csv");
    next();
  },
  express.json({ limit: IMPORT_LIMIT, strict: false, type: JSON_TYPES }),
  express.raw({ limit: IMPORT_LIMIT, type: CSV_TYPES }),
  limitDepth,
];

/** The body parsers of a POST under /v1 (the idempotency check reads bodies before the route does). */
export const bodyParsersFor = (path: string) => (/^\/reports\/[^/]+\/social-posts\/import$/.test(path) ? importBody : jsonBody);

/** Whether the request came with no body at all (body-parser then leaves an empty object). */
const noBody = (req: Request) => req.headers["content-length"] === "0" || (req.headers["content-length"] === undefined && req.headers["transfer-encoding"] === undefined);

/** The request body as a JSON object, or a 400. */
export function bodyObject(req: Request): Record<string, unknown> {
  const body: unknown = noBody(req) ? undefined : req.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new RestError(400, "Request body must be a JSON object");
  return body as Record<string, unknown>;
}

/** The request body as a JSON object, `{}` when the request has none (a route whose body is optional). */
export const optionalBodyObject = (req: Request): Record<string, unknown> => (noBody(req) ? {} : bodyObject(req));

/** A query parameter given once, as text; undefined when absent. */
export function queryText(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new RestError(400, `${name} must be given once, as text`);
  return value;
}

/** A query parameter that must be a whole number written in decimal digits (no 0x10, 1e1, spaces or signs but -). */
export function queryInt(req: Request, name: string): number | undefined {
  const value = queryText(req, name);
  if (value === undefined) return undefined;
  if (!/^(?:-?[1-9]\d{0,14}|\d{1,15})$/.test(value)) throw new RestError(400, `${name} must be an integer`);
  return Number(value);
}

/** A page of a list as the GraphQL list fields answer it. */
export interface Page<T = unknown> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

/** A list's `limit` (default 50) and `offset` (default 0) query parameters, as the list field's variables. */
export const pageVariables = (req: Request) => ({ limit: queryInt(req, "limit") ?? 50, offset: queryInt(req, "offset") ?? 0 });

/** Answers JSON text made elsewhere (runJson), as res.json would answer the value. */
export const sendJson = (res: Response, json: string): void => void res.type("json").send(json);

/** A page as every REST list answers it. */
export const pageBody = <T>({ items, total, limit, offset }: Page<T>) => ({ data: items, total, limit, offset });

/**
 * Runs a create or update: the body as the operation's `input` (fields under their GraphQL names), with the other
 * variables; messages name fields as the client spelled them.
 */
export function runWithBody<Data>(
  op: Operation,
  req: Request,
  context: Context,
  write: { table: FieldTable; mode: "create" | "update"; variables?: Record<string, unknown> },
): Promise<Data> {
  const { input, spelled } = restToInput(write.table, write.mode, bodyObject(req));
  return run<Data>(op, { ...write.variables, input }, context, { spelled });
}
