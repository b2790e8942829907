// What every request gets before anything else: an id (X-Request-Id, kept from the client when well formed) that its
// access-log line and error logs carry, and the CORS headers browser apps on other origins need (preflights are
// answered here, without a key and without counting against any limit).
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import cors from "cors";
import type { RequestHandler, Response } from "express";
import pinoHttp from "pino-http";
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

/** Who asked, as far as the access log may say: the key's display prefix and the team, never the key. */
function caller(res: ServerResponse): Record<string, string> {
  const viewer = (res as Response).locals?.context?.viewer;
  return viewer ? { keyPrefix: viewer.keyPrefix, teamId: viewer.teamId } : {};
}

/**
 * Fields of the request's log lines: at its start, its trace and span ids (traces on); at its end, the caller. (Read
 * twice by pino-http: what the start gave is kept, so each field is given once.)
 */
const requestFields = (_req: IncomingMessage, res: ServerResponse): Record<string, string> =>
  res.headersSent ? caller(res) : tracing ? (traceIds() ?? {}) : {};

/**
 * One JSON line per request when its answer is sent: method, path (a token route's template, never its token),
 * status, duration, key prefix, team, request id, and with traces on the trace and span ids of the request's span. Requests and responses are logged by these
 * fields only, so no header (Authorization included) reaches a log.
 */
export const accessLog = (): RequestHandler =>
  pinoHttp({
    logger,
    genReqId: requestId,
    quietReqLogger: true, // log lines of a request carry its id only (reqId), not the whole request again
    customAttributeKeys: { reqId: "requestId", responseTime: "durationMs" },
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: loggedPath(req.url) }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customProps: requestFields,
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : "info"),
    customSuccessMessage: () => "request",
    customErrorMessage: () => "request failed",
  }) as unknown as RequestHandler;

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
