// The one error envelope of the service: { error: { message, status } }, status equal to the HTTP status.
import type { NextFunction, Request, Response } from "express";
import { databaseFailure, isClientAbort } from "../db/errors";
import { requestLog } from "./requests";
import { withoutToken } from "../observability/token-urls";

export function sendError(res: Response, status: number, message: string): void {
  res.status(status).json({ error: { message, status } });
}

/** 503 (database unreachable, with Retry-After) or 504 (statement time budget) when `err` is one; else false. */
export function sendDatabaseFailure(res: Response, err: unknown): boolean {
  const failure = databaseFailure(err);
  if (!failure) return false;
  if (failure.retryAfter) res.setHeader("Retry-After", String(failure.retryAfter));
  sendError(res, failure.status, failure.message);
  return true;
}

/** A path whose percent-escapes do not decode (`/v1/reports/%ZZ`) is refused before any route reads it. */
export function rejectMalformedUrl(req: Request, res: Response, next: NextFunction): void {
  try {
    decodeURIComponent(req.path);
  } catch {
    return sendError(res, 400, "Malformed URL");
  }
  next();
}

/** Express's body-parser errors and anything unexpected, as the envelope. Never a stack trace or an HTML page. */
export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  const e = err as { type?: string; status?: number; expose?: boolean; message?: string; limit?: number };
  if (isClientAbort(err)) return clientAborted(err, req, res);
  if (res.headersSent) return void res.end();
  switch (e.type) {
    case "entity.parse.failed":
      return sendError(res, 400, "Malformed JSON in request body");
    case "entity.too.large":
      return sendError(res, 413, `Request body exceeds the ${(e.limit ?? 1_048_576) / 1_048_576} MiB limit`);
    case "encoding.unsupported":
    case "charset.unsupported":
      return sendError(res, 415, e.message ?? "Unsupported content encoding");
  }
  // Express's router and serve-static fail to decode a path parameter or file name.
  if (err instanceof URIError || /^Failed to decode param/.test(e.message ?? "")) return sendError(res, 400, "Malformed URL");
  if (sendDatabaseFailure(res, err)) {
    requestLog(req).warn({ err: e.message, method: req.method, url: withoutToken(req.originalUrl), status: res.statusCode }, "database failure");
    return;
  }
  if (e.expose && e.status && e.status >= 400 && e.status < 500) return sendError(res, e.status, e.message ?? "Bad request");
  requestLog(req).error({ err, method: req.method, url: withoutToken(req.originalUrl) }, "unhandled error");
  sendError(res, 500, "Internal server error");
}

/**
 * The client closed its connection in the middle of its request body: nothing ran, and nobody is left to read an
 * answer. Logged at info level as the client's doing (no database failure, no error), and answered 400 for the
 * access log's sake.
 */
function clientAborted(err: unknown, req: Request, res: Response): void {
  const { received, expected } = err as { received?: number; expected?: number };
  requestLog(req).info({ method: req.method, url: withoutToken(req.originalUrl), received, expected }, "client closed the connection before its request body was read");
  if (res.headersSent) return void res.end();
  sendError(res, 400, "Request body incomplete: the client closed the connection");
}
