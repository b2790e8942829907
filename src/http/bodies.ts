// Body parsers of the HTTP API (docs/api.md "Robustness"): JSON only (1 MiB, nested at most 32 levels, JSON content
// types only), and the engagement import's JSON or CSV. Used by REST's routes (src/rest/input.ts) and by the
// Idempotency-Key check (./idempotency.ts), which reads a POST's body with the same parsers before the route does.
import express, { type NextFunction, type Request, type Response } from "express";
import { sendError } from "./errors";
import { jsonDepth } from "./nesting";

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
export const bodyParsersFor = (path: string) =>
  /^\/reports\/[^/]+\/social-posts\/import$/.test(path) ? importBody : /^\/reports\/[^/]+(?:\/comparables\/[^/]+)?\/photos$/.test(path) ? [uploadBody] : jsonBody;

/** A photo upload's body (docs/api.md "Photos"): the 25 MB file and its few text fields, with room for the parts' headers. */
export const UPLOAD_LIMIT = 26 * 1024 * 1024;
const MULTIPART_TYPES = ["multipart/form-data"];
export const UPLOAD_TOO_LARGE = `Request body is larger than ${UPLOAD_LIMIT / (1024 * 1024)} MiB: a photo may be at most 25 MB`;

/**
 * Reads a multipart/form-data body as it is (a Buffer, parsed by the route), up to UPLOAD_LIMIT. Past it the rest is
 * read off and the answer is a 400 saying so (a photo too large is bad input, as its pixels are); another media type
 * is a 415. A body already read (by the Idempotency-Key check) is left as it is.
 */
export function uploadBody(req: Request, res: Response, next: NextFunction): void {
  if ((req as { _body?: boolean })._body) return next();
  const type = req.is(MULTIPART_TYPES);
  if (type === false) return sendError(res, 415, "Unsupported Content-Type; send multipart/form-data");
  if (type === null) return next(); // no body: the route says what is missing
  const declared = Number(req.headers["content-length"]);
  const chunks: Buffer[] = [];
  let size = 0;
  let over = Number.isFinite(declared) && declared > UPLOAD_LIMIT;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > UPLOAD_LIMIT) over = true;
    if (!over) chunks.push(chunk);
  });
  req.on("error", (err) => next(err));
  req.on("end", () => {
    if (over) return sendError(res, 400, UPLOAD_TOO_LARGE);
    (req as { _body?: boolean })._body = true;
    req.body = Buffer.concat(chunks, size);
    next();
  });
}
