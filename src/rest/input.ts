// Reading a REST request's input: JSON bodies (read by the parsers of src/http/bodies.ts; objects only) and query
// parameters, parsed strictly (docs/api.md "Robustness"). Values are only shaped here; the GraphQL schema checks them.
import type { Request, Response } from "express";
import { RestError } from "./graphql";

export { importBody, jsonBody } from "../http/bodies";

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

