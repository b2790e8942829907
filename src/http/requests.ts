// What every request gets before anything else: an id (X-Request-Id, kept from the client when well formed) that its
// access-log line and error logs carry, and the CORS headers browser apps on other origins need (preflights are
// answered here, without a key and without counting against any limit).
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import cors from "cors";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { logger } from "../logger";
import { traceIds } from "../observability/spans";
import { withoutToken } from "../observability/token-urls";
import { tracing } from "../observability/tracing";

/** An incoming X-Request-Id is kept when it is 1 to 200 of these characters (a UUID, a trace id…). */
const WELL_FORMED_ID = /^[\w.:@/+=-]{1,200}$/;

function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers["x-request-id"];
  const id = typeof incoming === "string" && WELL_FORMED_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader("X-Request-Id", id);
  return id;
}

/** A request's path as the access log shows it: without its query, a token route's token left out. */
export const loggedPath = (url: string): string => withoutToken(url.split("?")[0]);

declare module "express-serve-static-core" {
  interface Request {
    /** The request's id (X-Request-Id), given by the access log before anything else runs. */
    id?: string;
    /** With traces on, the ids of the request's span, taken at its start: its log lines carry them. */
    traceFields?: Record<string, string>;
  }
}

/** Who asked, as far as the access log may say: the key's display prefix and the team, never the key. */
function caller(res: ServerResponse): Record<string, string> {
  const viewer = (res as Response).locals?.context?.viewer;
  return viewer ? { keyPrefix: viewer.keyPrefix, teamId: viewer.teamId } : {};
}

/**
 * One JSON line per request when its answer is sent (or its connection closes first): request id, method, path (a
 * token route's template, never its token), status, duration in ms, key prefix and team, and with traces on the
 * trace and span ids of the request's span. Requests and responses are logged by these fields only, so no header
 * (Authorization included) reaches a log. A 5xx answer, or an error on the response, is logged at error level as
 * "request failed"; one whose connection closed before its answer was sent, as "request aborted" (`aborted: true`).
 *
 * Written on pino directly rather than through pino-http: pino-http makes two child loggers for every request before
 * it is answered (each serializing its bindings), which measured ~9 % of the service's CPU per REST detail; this
 * makes none, and a request's other log lines get theirs from `requestLog` when they are written.
 */
export const accessLog = (): RequestHandler => (req, res, next) => {
  const started = Date.now();
  req.id = requestId(req, res);
  if (tracing) req.traceFields = traceIds();
  const asked = { method: req.method, path: loggedPath(req.originalUrl) };
  const answered = (err?: unknown) => {
    res.removeListener("finish", answered);
    res.removeListener("close", answered);
    res.removeListener("error", answered);
    const line = { requestId: req.id, ...req.traceFields, req: asked, res: { status: res.statusCode }, durationMs: Date.now() - started, ...caller(res) };
    if (err || res.statusCode >= 500) logger.error(err ? { ...line, err } : line, "request failed");
    // The connection closed before the whole answer was sent: the status is what the answer would have had.
    else if (!res.writableFinished) logger.info({ ...line, aborted: true }, "request aborted");
    else logger.info(line, "request");
  };
  res.on("finish", answered);
  res.on("close", answered);
  res.on("error", answered);
  next();
};

/** The logger for a line written while a request is answered: the line carries the request's id (and span's ids). */
export const requestLog = (req: Request): Logger => logger.child({ requestId: req.id, ...req.traceFields });

/** Response headers a browser app may read (ETag: to revalidate with If-None-Match itself, docs/api.md "HTTP caching"). */
const EXPOSED = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After", "X-Request-Id", "Idempotent-Replayed", "ETag"];

/** CORS for `origins` ("*": any origin; the service authenticates by bearer key, never by cookie). */
export const crossOrigin = (origins: "*" | string[]): RequestHandler =>
  cors({
    origin: origins === "*" ? "*" : origins,
    methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
    // If-None-Match: a revalidation the app sends itself; Last-Event-ID: a live stream resumed by a fetch-based client.
    allowedHeaders: ["Authorization", "Content-Type", "Idempotency-Key", "X-Request-Id", "If-None-Match", "Last-Event-ID"],
    exposedHeaders: EXPOSED,
    maxAge: 600,
  });
