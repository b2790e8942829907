// The REST route table's form and what is made from it (below), and the glue shared by every route: the request
// context, error envelope and method-not-allowed answers.
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import type { z } from "zod";
import { listInWords } from "../auth/permissions";
import { settleRiders, type Context } from "../context";
import { sendError } from "../http/errors";
import { restNotModified } from "./http-cache";
import { schema } from "../schema";
import { fieldPermissions } from "../schema/auth-scopes";
import { RestError, type Operation } from "./graphql";
import { jsonBody, pageBody, type Page } from "./input";

type Handler = (req: Request, res: Response) => Promise<void>;

/** How the HTTP cache treats a route's answers (`RestRoute.cacheable`, `checksKey`). */
interface Caching {
  cacheable: boolean;
  oneStatement: boolean;
}

async function answer(fn: Handler, req: Request, res: Response, caching: Caching): Promise<void> {
  const context = res.locals.context as Context | undefined;
  try {
    // A read the client holds the current answer of: 304, nothing built (./http-cache.ts).
    if (!(caching.cacheable && (await restNotModified(req, res, caching.oneStatement)))) await fn(req, res);
  } catch (err) {
    // The request's riders (context.ts) that its statement did not settle, settled now (a handler that failed before
    // it read): a refusal is the answer instead of the error (a key revoked since this process read it gets its 401,
    // not a 400). A database that cannot be reached keeps the error it caused.
    const refusal = await settleRiders(context).catch(() => undefined);
    if (refusal) return sendError(res, refusal.status, refusal.message);
    if (err instanceof RestError) return sendError(res, err.status, err.message);
    throw err;
  }
  // Answered without its statement settling them (nothing else to read): settled now, so the call is counted. The
  // answer is sent, so a failure here changes nothing the client sees.
  await settleRiders(context).catch(() => undefined);
}

/** Wraps a route handler: RestErrors become the error envelope; anything else goes to the error handler. */
export const handle =
  (fn: Handler, caching: Caching = { cacheable: false, oneStatement: false }) =>
  (req: Request, res: Response, next: NextFunction): void => {
    answer(fn, req, res, caching).catch(next);
  };

/** Answers 405 with an Allow header for methods a path does not serve. */
export function allowOnly(router: Router, path: string, methods: string[]): void {
  router.all(path, (_req, res) => {
    res.setHeader("Allow", methods.join(", "));
    sendError(res, 405, `Method not allowed; this path accepts ${methods.join(", ")}`);
  });
}

// ---- the route table ----
// Each REST route is declared once (docs/api.md "Endpoints"): method, path, the GraphQL operations it runs, its
// input and answer shapes, success status and errors. The Express router (`routerOf`), the 405 answers with their
// Allow header, the OpenAPI document (./openapi.ts), the auth middleware's choice of the key check in the statement
// (`statementChecked`) and the tests' list of routes (test/rest-routes.test.ts) are all made from these declarations.

export type Method = "get" | "post" | "put" | "patch" | "delete";
/** The OpenAPI tag that groups a route (the document lists the tags in the order the table first uses them). */
export type Tag = string;

/** JSON text of an answer's value made elsewhere (the one-statement read path's), sent as it is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * What a route answers: one value as `{ data }` (with the route's message when it has one), a page as
 * `{ data, total, limit, offset }`, only its message, or a body of its own (`body`, for a route whose answer takes
 * several forms). The OpenAPI response schema is made from the same choice.
 */
export type Answer = { data: z.ZodType } | { page: z.ZodType } | { body: z.ZodType } | "message";

export interface RestRoute {
  method: Method;
  /** The path as the OpenAPI document writes it: /v1/reports/{reportId}. */
  path: string;
  /** A stable name for client generators and Swagger's deep links. */
  operationId: string;
  tag: Tag;
  /** Its summary, or a function given the permissions its operations need ("comparables:create, update and delete"). */
  summary: string | ((needs: string) => string);
  description?: string;
  /** The GraphQL operations it runs: their root fields' authScopes are the permissions it needs. */
  operations: Operation[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The body may be left out. */
  bodyOptional?: boolean;
  /** A second body type the route takes (text/csv). */
  csvBody?: z.ZodType;
  /** A multipart/form-data body instead of JSON (a photo upload): its parts. */
  multipartBody?: z.ZodType;
  /** Its body parsers; default: JSON (./input.ts) for POST, PUT and PATCH, none for the others. */
  parsers?: RequestHandler[];
  status?: 200 | 201 | 202;
  answer: Answer;
  /** A success answer that is not JSON (the report's PDF, a QR code): its media type; `run` sends it. */
  binary?: "application/pdf" | "image/svg+xml" | "image/png" | "image/*";
  /** The answer as text/csv too (`run` sends it when the request asks for CSV). */
  csvResponse?: z.ZodType;
  /** The answer's message (every change has one), or a function of the answered value. */
  message?: string | ((value: never) => string);
  responseDescription: string;
  /** Error statuses besides those `errorsOf` gives every route of its kind. */
  errors?: number[];
  /**
   * Read by one statement that can also check the request's key: the middleware then admits a key this process
   * knows without reading it first (ARCHITECTURE.md "The key check").
   */
  checksKey?: boolean;
  /**
   * A GET whose answer is made only of the team's rows that its data version counts (src/http/http-cache.ts): it is
   * sent with an ETag, and a client holding the current one gets 304. Not for answers that change otherwise: the
   * rate-limit status of users/me, usage, the audit log, share links, registered documents.
   */
  cacheable?: boolean;
  /**
   * The answer's value (a RawJson for text the database made), or undefined when `run` sent the response itself
   * (a body that is not JSON).
   */
  run: (req: Request, res: Response) => Promise<unknown>;
}

const bodyMethods = new Set<Method>(["post", "put", "patch"]);

/** The answer's body for the value `run` gave. */
function answerBody(route: RestRoute, value: unknown): unknown {
  const { answer } = route;
  const message = typeof route.message === "function" ? route.message(value as never) : route.message;
  if (answer === "message") return { message };
  if ("page" in answer) return pageBody(value as Page);
  if ("body" in answer) return value;
  return message === undefined ? { data: value } : { data: value, message };
}

/**
 * Sends the answer: JSON text from the database as it is, in one write with its headers (res.send would copy it into
 * a Buffer, written apart from the headers, and hash it for an ETag: a cacheable route has set its own, and the others
 * are not cached), else the body as res.json makes it.
 */
function send(route: RestRoute, res: Response, value: unknown): void {
  res.status(route.status ?? 200);
  if (!(value instanceof RawJson)) return void res.json(answerBody(route, value));
  const text = typeof route.answer === "object" && "data" in route.answer ? `{"data":${value.text}}` : value.text;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

/** The Express path of a template: /v1/reports/{reportId} → /reports/:reportId (the router is mounted at /v1). */
const expressPath = (template: string) => template.replace(/^\/v1/, "").replace(/\{([^}]+)\}/g, ":$1");

/** The Express router of the routes: each path's methods in the table's order, then its 405 answer. */
export function routerOf(routes: readonly RestRoute[]): Router {
  const router = Router();
  const paths = [...new Set(routes.map((route) => route.path))];
  for (const path of paths) {
    const here = routes.filter((route) => route.path === path);
    for (const route of here) {
      const parsers = route.parsers ?? (bodyMethods.has(route.method) ? jsonBody : []);
      router[route.method](
        expressPath(path),
        ...parsers,
        handle(async (req, res) => {
          const value = await route.run(req, res);
          if (value !== undefined || !res.headersSent) send(route, res, value);
        }, { cacheable: route.method === "get" && route.cacheable === true, oneStatement: route.checksKey === true }),
      );
    }
    allowOnly(router, expressPath(path), here.map((route) => route.method.toUpperCase()));
  }
  return router;
}

/**
 * The pattern of a template's concrete paths; a parameter is one segment of word characters and dashes, or of
 * `segment` (the last-use template of a request takes any segment: ./route-templates.ts).
 */
export const pathPattern = (template: string, segment = "[\\w-]+"): string =>
  template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^/}]+\}/g, segment);

/** Whether a request calls a GET route that checks its key in its own statement (`checksKey`). */
export function statementChecked(routes: readonly RestRoute[]): (req: Request) => boolean {
  const templates = routes.filter((route) => route.checksKey && route.method === "get").map((route) => pathPattern(route.path));
  const pattern = new RegExp(`^(?:${templates.join("|")})/?$`);
  return (req) => req.method === "GET" && pattern.test(req.path);
}

/** The permissions a root field's authScopes name (one, or every one of a list). */
function rootPermissions(op: Operation): string[] {
  const type = op.kind === "mutation" ? schema.getMutationType() : schema.getQueryType();
  return fieldPermissions(type?.getFields()[op.rootField]);
}

/** The permissions a route's operations need: "comparables:read", "social_media:create and update". */
export function routeNeeds(route: Pick<RestRoute, "operations">): string[] {
  return [...new Set(route.operations.flatMap(rootPermissions))];
}

/** Permissions in words, the actions of one resource joined: comparables:create, update and delete. */
export function needsInWords(permissions: string[]): string {
  const resources = new Set(permissions.map((p) => p.split(":")[0]));
  const words = resources.size === 1 ? [permissions[0], ...permissions.slice(1).map((p) => p.split(":")[1])] : permissions;
  return listInWords(words);
}

/** The route's summary with the permissions it needs where it names them. */
export const summaryOf = (route: RestRoute): string =>
  typeof route.summary === "string" ? route.summary : route.summary(needsInWords(routeNeeds(route)));

/**
 * The error statuses a route answers: its own, and 401, 405 and 429 (every route), 403 (it needs a permission), 404
 * (its path names something), 400, 413 and 415 (it takes a body).
 */
export function errorsOf(route: RestRoute): number[] {
  const statuses = [
    ...(route.errors ?? []),
    401,
    405,
    429,
    ...(routeNeeds(route).length ? [403] : []),
    ...(route.path.includes("{") ? [404] : []),
    ...(bodyMethods.has(route.method) ? [400, 413, 415] : []),
  ];
  return [...new Set(statuses)].sort();
}
