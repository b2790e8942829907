// The OpenAPI 3.1 document of REST v1, generated from the zod schemas the routes validate with, and the
// interactive reference at /docs (swagger-ui-dist, served from the package: no CDN).
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import express, { Router } from "express";
import swaggerUiPackage from "swagger-ui-dist/package.json";
import { z } from "zod";
import { sendError } from "../http/errors";
import { IDEMPOTENCY_HEADER, IN_PROGRESS_MESSAGE, REPLAYED_HEADER, REUSED_MESSAGE } from "../http/idempotency";
import { errorsOf, summaryOf, type Answer, type RestRoute } from "./route";
import * as s from "./schemas";
import { ROUTES } from "./table";


const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": { description: "Requests allowed per hour", schema: { type: "integer" as const } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window", schema: { type: "integer" as const } },
  "X-RateLimit-Reset": { description: "Unix time (seconds) at which the window resets", schema: { type: "integer" as const } },
};

const json = (schema: z.ZodType, description: string): ResponseConfig => ({
  description,
  headers: RATE_LIMIT_HEADERS,
  content: { "application/json": { schema } },
});

const ERRORS: Record<number, string> = {
  400: "Invalid request: a value of the wrong type or out of bounds, or a body that is not a JSON object",
  401: "Missing, malformed, unknown, expired or revoked API key",
  403: "The key lacks the permission (Permission denied: <resource>:<action>)",
  404: "No such report, showing, comparable, insight, share link, webhook, delivery or event in the key's team",
  422: "The fair-housing screen flagged the summary and AI_FAIR_HOUSING=block: nothing was saved",
  502: "The AI provider failed (AI provider failed: <reason>); nothing was saved",
  504: "The AI provider did not answer in time; nothing was saved",
  405: "The path does not serve this method",
  409: "A showing with this unique_showing_key already exists in the team; or the webhook is disabled (test, redeliver)",
  413: "The body exceeds 1 MiB (4 MiB for an engagement import)",
  415: "The body is not JSON (or CSV, for an engagement import)",
  429: "Rate limit exceeded (see Retry-After)",
};
const errors = (codes: number[]): Record<number, ResponseConfig> =>
  Object.fromEntries(codes.map((code) => [code, json(s.errorBody, ERRORS[code])]));

// Idempotency-Key (src/http/idempotency.ts) applies to every POST: the header, the replay marker and the 409/422
// answers are added to each POST operation here, so a new POST route is documented without saying so.
const idempotencyHeaders = z.object({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .regex(/^[\x20-\x7e]{1,255}$/)
    .optional()
    .meta({
      description:
        "1 to 255 printable ASCII characters (e.g. a UUID), scoped to the API key and kept 24 hours. A repeat with the same " +
        `path and body (compared as parsed JSON) gets the first answer again with ${REPLAYED_HEADER}: true and changes nothing. ` +
        "Answers 401, 403, 429 and 5xx are not kept: a retry runs again.",
    }),
});
const IDEMPOTENCY_ERRORS: Record<number, string> = { 409: IN_PROGRESS_MESSAGE, 422: REUSED_MESSAGE };

function withIdempotencyKey(config: RouteConfig): RouteConfig {
  const responses = { ...config.responses } as Record<string, ResponseConfig>;
  for (const [status, response] of Object.entries(responses)) {
    if (Number(status) < 300) {
      const replayed = { description: `"true" when this is the stored answer of an earlier request with the same ${IDEMPOTENCY_HEADER}`, schema: { type: "string" as const, enum: ["true"] } };
      responses[status] = { ...response, headers: { ...(response.headers as object), [REPLAYED_HEADER]: replayed } };
    }
  }
  for (const [status, message] of Object.entries(IDEMPOTENCY_ERRORS)) {
    const existing = responses[status]?.description;
    responses[status] = json(s.errorBody, existing ? `${existing}; or: ${message}` : message);
  }
  return { ...config, request: { ...config.request, headers: idempotencyHeaders }, responses };
}

/** Adds text/csv beside application/json to the success answer of a route that can answer CSV. */
function withCsvAnswer(config: RouteConfig, route: RestRoute): RouteConfig {
  if (!route.csvResponse) return config;
  const status = String(route.status ?? 200);
  const answer = config.responses[status] as ResponseConfig;
  const content = { ...answer.content, "text/csv": { schema: route.csvResponse } };
  return { ...config, responses: { ...config.responses, [status]: { ...answer, content } } };
}

function toRouteConfig(route: RestRoute): RouteConfig {
  const config = withCsvAnswer(routeConfig(route), route);
  return route.method === "post" ? withIdempotencyKey(config) : config;
}

/** The schema of a route's answer (./route.ts, Answer). */
function answerSchema(answer: Answer, message: boolean): z.ZodType {
  if (answer === "message") return s.messageOnly;
  if ("page" in answer) return s.pageOf(answer.page);
  if ("body" in answer) return answer.body;
  return message ? s.mutationOf(answer.data) : s.dataOf(answer.data);
}

function routeConfig(route: RestRoute): RouteConfig {
  return {
    method: route.method,
    path: route.path,
    operationId: route.operationId,
    tags: [route.tag],
    summary: summaryOf(route),
    description: route.description,
    request: {
      params: route.params,
      query: route.query,
      body: route.multipartBody
        ? { required: true, content: { "multipart/form-data": { schema: route.multipartBody } } }
        : route.body && {
            required: !route.bodyOptional,
            content: { "application/json": { schema: route.body }, ...(route.csvBody ? { "text/csv": { schema: route.csvBody } } : {}) },
          },
    },
    responses: {
      [route.status ?? 200]: route.binary
        ? { description: route.responseDescription, headers: RATE_LIMIT_HEADERS, content: { [route.binary]: { schema: z.string().meta({ format: "binary" }) } } }
        : json(answerSchema(route.answer, route.message !== undefined), route.responseDescription),
      ...errors(errorsOf(route)),
    },
  };
}

const DESCRIPTION = `Team-scoped property reports with their showings, comparables and agent insights. Authenticate with your API key as a bearer token:
\`Authorization: Bearer prs_sk_live_…\`. Errors are \`{ "error": { "message", "status" } }\`; every response carries the
X-RateLimit-* headers. The same data is available over GraphQL at /graphql.`;

let cached: ReturnType<OpenApiGeneratorV31["generateDocument"]> | undefined;

/** The OpenAPI 3.1 document of every REST v1 route (built once). */
export function openApiDocument() {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "apiKey", { type: "http", scheme: "bearer", description: "prs_sk_live_ followed by 32 characters" });
  for (const route of ROUTES) registry.registerPath(toRouteConfig(route));
  cached = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: { title: "Property Report Service API", version: API_VERSION, description: DESCRIPTION },
    // No servers list: OpenAPI's default server is "/" already, and with one Swagger UI draws an unlabelled select.
    security: [{ apiKey: [] }],
    tags: [...new Set(ROUTES.map((route) => route.tag))].map((name) => ({ name })),
  });
  return cached;
}

/** The version of the REST contract (docs/api.md). */
export const API_VERSION = "1.0.1";

// Swagger UI's files are served under their package version with a year-long, immutable cache: an upgrade changes
// their URLs, so a browser never runs a stale copy and never asks twice for the same one.
const SWAGGER_UI_VERSION = swaggerUiPackage.version;
const ASSETS = `/docs/assets/${SWAGGER_UI_VERSION}`;
/**
 * The package's directory. Its own absolute-path module, not the package's main one: that one also evaluates the
 * browser bundle (about 0.3 s of CPU in every process that builds the app) only to export it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file of the package without type declarations, typed here
const swaggerUiDir = require("swagger-ui-dist/absolute-path.js") as () => string;

/** What Swagger UI shows of ours (the version, the document's URL, Authorize) at 4.5:1 contrast or more. */
const DOCS_STYLE = [
  ".swagger-ui .info .title small, .swagger-ui .info .title small pre { background: #4f5563; color: #fff; }",
  ".swagger-ui .info .title small.version-stamp, .swagger-ui .info .title small.version-stamp pre { background: #2f6b1f; }",
  ".swagger-ui .info a.link .url, .swagger-ui .info .url { color: #2b5a8a; }",
  ".swagger-ui .btn.authorize { color: #1f6e45; border-color: #1f6e45; }",
  ".swagger-ui .btn.authorize svg { fill: #1f6e45; }",
].join("\n");

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Property Report Service API</title>
  <link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
  <style>${DOCS_STYLE}</style>
</head>
<body>
  <div id="docs"></div>
  <script src="${ASSETS}/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

// Separate file rather than an inline script, so a Content-Security-Policy without 'unsafe-inline' still works. The key
// given to Authorize stays in the page's memory (persistAuthorization off: Swagger UI would keep it in localStorage,
// beyond the tab's life).
const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: "/v1/openapi.json", dom_id: "#docs", persistAuthorization: false, deepLinking: true });`;

/** GET /v1/openapi.json and GET /docs: public, no key. */
export function docsRouter(): Router {
  const router = Router();
  router.get("/v1/openapi.json", (_req, res) => void res.json(openApiDocument()));
  router.get("/docs", (_req, res) => void res.type("html").send(DOCS_PAGE));
  router.get("/docs/init.js", (_req, res) => void res.type("js").send(DOCS_INIT));
  router.use(ASSETS, express.static(swaggerUiDir(), { index: false, immutable: true, maxAge: "365d" }));
  router.use("/docs/assets", (req, res) => sendError(res, 404, `Not found: ${req.method} ${req.originalUrl}`));
  return router;
}
