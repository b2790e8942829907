// The OpenAPI 3.1 document of REST v1, generated from the zod schemas the routes validate with, and the
// interactive reference at /docs (swagger-ui-dist, served from the package: no CDN).
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import express, { Router } from "express";
import { z } from "zod";
import { sendError } from "../http/errors";
import { IDEMPOTENCY_HEADER, IN_PROGRESS_MESSAGE, REPLAYED_HEADER, REUSED_MESSAGE } from "../http/idempotency";
import * as s from "./schemas";

type Method = "get" | "post" | "put" | "patch" | "delete";
const TAGS = ["Reports", "Showings", "Comparables", "Insights", "Social media", "Summaries", "Webhooks", "Users"] as const;
type Tag = (typeof TAGS)[number];

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

interface Route {
  method: Method;
  /** A stable name for client generators and Swagger's deep links. */
  operationId: string;
  path: string;
  summary: string;
  description?: string;
  tag: Tag;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The body may be left out. */
  bodyOptional?: boolean;
  /** A second body type the route takes (text/csv). */
  csvBody?: z.ZodType;
  status?: 200 | 201 | 202;
  response: z.ZodType;
  responseDescription: string;
  /** Error statuses besides 401, 405 and 429, which every route can answer. */
  errors: number[];
  /** A success answer that is not JSON (the report's PDF): its media type; `response` is then unused. */
  binary?: "application/pdf";
}

const BODY_ERRORS = [400, 413, 415];

const reportIdParam = z.object({ reportId: z.string().meta({ description: "Report uuid" }) });

/** The routes of a kind of report item (src/rest/report-items.ts): a report's list and create, then get/update/delete. */
function reportItemRoutes(item: {
  tag: Tag;
  /** singular and plural nouns, e.g. comparable / comparables */
  one: string;
  many: string;
  /** operationId stems, e.g. Comparable / Comparables */
  op: string;
  path: string;
  permission: string;
  /** Absent: the items are not created or changed one by one. */
  create?: z.ZodType;
  update?: z.ZodType;
  response: z.ZodType;
  listQuery?: z.ZodObject;
  order?: string;
  /** The create's query parameters and answer, when they are not the plain ones (a RESO record, for comparables). */
  createQuery?: z.ZodObject;
  createResponse?: z.ZodType;
  createDescription?: string;
}): Route[] {
  const idParams = z.object({ [`${item.one}Id`]: z.string().meta({ description: `The ${item.one}'s uuid` }) });
  const list = `/v1/reports/{reportId}/${item.path}`;
  const one = `/v1/${item.path}/{${item.one}Id}`;
  return [
    {
      method: "get",
      operationId: `list${item.op}s`,
      path: list,
      tag: item.tag,
      summary: `List a report's ${item.many}, ${item.order ?? "oldest first"} (needs ${item.permission}:read)`,
      params: reportIdParam,
      query: item.listQuery ?? s.pageQuery,
      response: s.pageOf(item.response),
      responseDescription: `A page of ${item.many}`,
      errors: [400, 403, 404],
    },
    {
      method: "post",
      operationId: `create${item.op}`,
      path: list,
      tag: item.tag,
      summary: `Add a ${item.one} to a report (needs ${item.permission}:create)`,
      description: item.createDescription,
      params: reportIdParam,
      query: item.createQuery,
      body: item.create,
      status: 201,
      response: item.createResponse ?? s.mutationOf(item.response),
      responseDescription: `The created ${item.one}`,
      errors: [...BODY_ERRORS, 403, 404],
    },
    {
      method: "get",
      operationId: `get${item.op}`,
      path: one,
      tag: item.tag,
      summary: `Get a ${item.one} (needs ${item.permission}:read)`,
      params: idParams,
      response: s.dataOf(item.response),
      responseDescription: `The ${item.one}`,
      errors: [403, 404],
    },
    {
      method: "patch",
      operationId: `update${item.op}`,
      path: one,
      tag: item.tag,
      summary: `Change the given fields of a ${item.one} (needs ${item.permission}:update)`,
      params: idParams,
      body: item.update,
      response: s.mutationOf(item.response),
      responseDescription: `The updated ${item.one}`,
      errors: [...BODY_ERRORS, 403, 404],
    },
    {
      method: "delete",
      operationId: `delete${item.op}`,
      path: one,
      tag: item.tag,
      summary: `Delete a ${item.one} (needs ${item.permission}:delete)`,
      params: idParams,
      response: s.messageOnly,
      responseDescription: "Deleted",
      errors: [403, 404],
    },
  ].filter((route) => !(route.method === "post" || route.method === "patch") || route.body !== undefined) as Route[];
}

/** Share links and the report's PDF (src/rest/share-links.ts; docs/api.md "Wave 3 contracts", "Share links"). */
function shareRoutes(): Route[] {
  const tag = "Reports" as const;
  const links = "/v1/reports/{reportId}/share-links";
  return [
    { method: "get", operationId: "listShareLinks", path: links, tag, summary: "A report's share links, newest first, revoked and expired ones too; never their tokens (needs reports:share)", params: reportIdParam, query: s.pageQuery, response: s.pageOf(s.shareLink), responseDescription: "A page of share links", errors: [400, 403, 404] },
    {
      method: "post",
      operationId: "createShareLink",
      path: links,
      tag,
      summary: "Make a link to a public, read-only page of the report (needs reports:share)",
      description:
        "The page (HTML, no key, no script) and its PDF (url + .pdf) show the report's facts, executive summary and agent, and the sections whose show_*_on_report switch is on; never showing attendees' names, e-mails, phones or feedback. Unknown, expired or revoked: 404. token and url are in this answer only.",
      params: reportIdParam,
      body: s.createShareLinkBody,
      bodyOptional: true,
      status: 201,
      response: s.mutationOf(s.shareLinkWithToken),
      responseDescription: "The link with its token and url (shown only now)",
      errors: [...BODY_ERRORS, 403, 404],
    },
    { method: "delete", operationId: "revokeShareLink", path: `${links}/{linkId}`, tag, summary: "Revoke a share link: its page and PDF answer 404 from now on, on every server (needs reports:share)", params: s.shareLinkParams, response: s.mutationOf(s.shareLink), responseDescription: "The revoked link", errors: [403, 404] },
    { method: "get", operationId: "getReportPdf", path: "/v1/reports/{reportId}/pdf", tag, summary: "The report as a PDF: the share page's content (needs reports:read; sections of collections the key may not read are left out)", params: reportIdParam, response: s.messageOnly, binary: "application/pdf", responseDescription: "The PDF", errors: [403, 404] },
  ];
}

/** The webhook routes (src/rest/webhooks.ts; DECISIONS "Webhooks"). */
function webhookRoutes(): Route[] {
  const tag = "Webhooks" as const;
  const one = "/v1/webhooks/{webhookId}";
  const params = s.webhookIdParams;
  return [
    { method: "get", operationId: "listWebhookEventTypes", path: "/v1/webhooks/event-types", tag, summary: "The event types endpoints can subscribe to (needs webhooks:read)", response: s.dataOf(z.array(s.webhookEventType)), responseDescription: "The catalog", errors: [403] },
    { method: "get", operationId: "listWebhooks", path: "/v1/webhooks", tag, summary: "The team's webhook endpoints, oldest first (needs webhooks:read)", query: s.pageQuery, response: s.pageOf(s.webhookEndpoint), responseDescription: "A page of endpoints", errors: [400, 403] },
    {
      method: "post",
      operationId: "createWebhook",
      path: "/v1/webhooks",
      tag,
      summary: "Add an endpoint (needs webhooks:create)",
      description: "The answer holds the signing secret, shown only this once. Hosts that resolve to loopback, private, link-local or other non-public addresses are refused unless WEBHOOK_ALLOW_PRIVATE_URLS=true.",
      body: s.createWebhookBody,
      status: 201,
      response: s.mutationOf(s.webhookEndpointWithSecret),
      responseDescription: "The endpoint with its secret",
      errors: [...BODY_ERRORS, 403],
    },
    { method: "get", operationId: "getWebhook", path: one, tag, summary: "Get an endpoint (needs webhooks:read)", params, response: s.dataOf(s.webhookEndpoint), responseDescription: "The endpoint", errors: [403, 404] },
    { method: "patch", operationId: "updateWebhook", path: one, tag, summary: "Change the given fields of an endpoint; enabling it clears disabled_reason (needs webhooks:update)", params, body: s.updateWebhookBody, response: s.mutationOf(s.webhookEndpoint), responseDescription: "The endpoint", errors: [...BODY_ERRORS, 403, 404] },
    { method: "delete", operationId: "deleteWebhook", path: one, tag, summary: "Delete an endpoint and its delivery log (needs webhooks:delete)", params, response: s.messageOnly, responseDescription: "Deleted", errors: [403, 404] },
    { method: "post", operationId: "rotateWebhookSecret", path: `${one}/rotate-secret`, tag, summary: "A new secret, shown only now; the old one keeps signing too for 24 hours (needs webhooks:update)", params, response: s.mutationOf(s.webhookEndpointWithSecret), responseDescription: "The endpoint with its new secret", errors: [...BODY_ERRORS, 403, 404] },
    { method: "post", operationId: "testWebhook", path: `${one}/test`, tag, summary: "Send a webhook.test event to this endpoint (needs webhooks:update)", params, status: 202, response: s.mutationOf(s.webhookDelivery), responseDescription: "The queued delivery", errors: [...BODY_ERRORS, 403, 404, 409] },
    { method: "get", operationId: "listWebhookDeliveries", path: `${one}/deliveries`, tag, summary: "The endpoint's delivery attempts, newest first, optionally of one status and event type (needs webhooks:read)", params, query: s.deliveryListQuery, response: s.pageOf(s.webhookDelivery), responseDescription: "A page of attempts", errors: [400, 403, 404] },
    { method: "post", operationId: "redeliverWebhook", path: `${one}/deliveries/{deliveryId}/redeliver`, tag, summary: "Send a delivery's event again now: the retry already waiting, if any, else a new attempt (needs webhooks:update)", params: s.deliveryParams, status: 202, response: s.mutationOf(s.webhookDelivery), responseDescription: "The queued attempt", errors: [...BODY_ERRORS, 403, 404, 409] },
    { method: "get", operationId: "listEvents", path: "/v1/events", tag, summary: "The team's events of the last 30 days, newest first (needs webhooks:read)", query: s.eventListQuery, response: s.pageOf(s.webhookEvent), responseDescription: "A page of events", errors: [400, 403] },
    { method: "get", operationId: "getEvent", path: "/v1/events/{eventId}", tag, summary: "Get an event (needs webhooks:read)", params: s.eventIdParams, response: s.dataOf(s.webhookEvent), responseDescription: "The event", errors: [403, 404] },
  ];
}

const routes: Route[] = [
  {
    method: "get",
    operationId: "listReports",
    path: "/v1/reports",
    tag: "Reports",
    summary: "List the team's reports, or find one by address",
    description: "Without address: a page of reports, newest first. With address: { data: the best-matching report } (exact, then prefix, then containment; latest update breaks ties); the other parameters are ignored.",
    query: s.reportListQuery,
    response: s.pageOf(s.reportSummary).or(s.dataOf(s.reportDetail)),
    responseDescription: "A page of reports, or { data: report } when address is given",
    errors: [400, 403, 404],
  },
  {
    method: "post",
    operationId: "createReport",
    path: "/v1/reports",
    tag: "Reports",
    summary: "Create a report (as a draft)",
    description:
      "listing_agent defaults to the team admin's name, created_by to the team's name. The body may be a RESO Property record (format=reso, or detected by its names): the answer then adds ignored_fields.",
    query: s.createFormatQuery,
    body: s.createReportBody.or(s.resoReportBody),
    status: 201,
    response: s.createdOf(s.report),
    responseDescription: "The created report",
    errors: [...BODY_ERRORS, 403],
  },
  {
    method: "get",
    operationId: "searchReports",
    path: "/v1/reports/search",
    tag: "Reports",
    summary: "Find the report that best matches an address",
    query: s.addressSearchQuery,
    response: s.dataOf(s.reportDetail),
    responseDescription: "The best-matching report",
    errors: [400, 403, 404],
  },
  {
    method: "get",
    operationId: "getReport",
    path: "/v1/reports/{reportId}",
    tag: "Reports",
    summary: "Get a report with its collections, or as a RESO Property record (format=reso)",
    params: s.reportIdParams,
    query: s.reportGetQuery,
    response: s.dataOf(s.reportDetail.or(s.resoProperty)),
    responseDescription: "The report",
    errors: [400, 403, 404],
  },
  {
    method: "patch",
    operationId: "updateReport",
    path: "/v1/reports/{reportId}",
    tag: "Reports",
    summary: "Change the given fields of a report",
    description: "status \"published\" or is_draft false publishes (needs reports:publish); contradictory values are a 400.",
    params: s.reportIdParams,
    body: s.updateReportBody,
    response: s.mutationOf(s.report),
    responseDescription: "The updated report",
    errors: [...BODY_ERRORS, 403, 404],
  },
  {
    method: "delete",
    operationId: "deleteReport",
    path: "/v1/reports/{reportId}",
    tag: "Reports",
    summary: "Delete a report and everything attached to it (irreversible)",
    params: s.reportIdParams,
    response: s.messageOnly,
    responseDescription: "Deleted",
    errors: [403, 404],
  },
  {
    method: "get",
    operationId: "listShowings",
    path: "/v1/showings",
    tag: "Showings",
    summary: "List the team's showings, newest first",
    query: s.showingListQuery,
    response: s.pageOf(s.showing),
    responseDescription: "A page of showings",
    errors: [400, 403],
  },
  {
    method: "post",
    operationId: "createShowing",
    path: "/v1/showings",
    tag: "Showings",
    summary: "Add a showing or open house to a report",
    body: s.createShowingBody,
    status: 201,
    response: s.mutationOf(s.showing),
    responseDescription: "The created showing",
    errors: [...BODY_ERRORS, 403, 404, 409],
  },
  {
    method: "get",
    operationId: "getShowing",
    path: "/v1/showings/{showingId}",
    tag: "Showings",
    summary: "Get a showing by id or unique_showing_key",
    params: s.showingIdParams,
    response: s.dataOf(s.showing),
    responseDescription: "The showing",
    errors: [403, 404],
  },
  {
    method: "patch",
    operationId: "updateShowing",
    path: "/v1/showings/{showingId}",
    tag: "Showings",
    summary: "Change the given fields of a showing",
    params: s.showingIdParams,
    body: s.updateShowingBody,
    response: s.mutationOf(s.showing),
    responseDescription: "The updated showing",
    errors: [...BODY_ERRORS, 403, 404, 409],
  },
  {
    method: "delete",
    operationId: "deleteShowing",
    path: "/v1/showings/{showingId}",
    tag: "Showings",
    summary: "Delete a showing (irreversible)",
    params: s.showingIdParams,
    response: s.messageOnly,
    responseDescription: "Deleted",
    errors: [403, 404],
  },
  ...reportItemRoutes({
    tag: "Comparables",
    one: "comparable",
    many: "comparables",
    op: "Comparable",
    path: "comparables",
    permission: "comparables",
    create: s.createComparableBody.or(s.resoComparableBody),
    update: s.updateComparableBody,
    response: s.comparable,
    createQuery: s.createFormatQuery,
    createResponse: s.createdOf(s.comparable),
    createDescription: "The body may be a RESO Property record (format=reso, or detected by its names): the answer then adds ignored_fields.",
  }),
  {
    method: "put",
    operationId: "replaceComparables",
    path: "/v1/reports/{reportId}/comparables",
    tag: "Comparables",
    summary: "Replace a report's whole set of comparables (needs comparables:create, update and delete)",
    description:
      "One transaction: every item is valid and saved, or nothing changes and the 400 names the item (comparables[3].price must be a number). The answer is the new set in the order sent.",
    params: reportIdParam,
    body: s.replaceComparablesBody,
    response: s.mutationOf(z.array(s.comparable)),
    responseDescription: "The new set",
    errors: [...BODY_ERRORS, 403, 404],
  },
  {
    method: "get",
    operationId: "getValuation",
    path: "/v1/reports/{reportId}/valuation",
    tag: "Comparables",
    summary: "A comparative market analysis of a report from its comparables (needs comparables:read)",
    description: "The median adjusted price per square foot of the included comparables × the report's sqft; see the README for the method.",
    params: reportIdParam,
    response: s.dataOf(s.valuation),
    responseDescription: "The valuation",
    errors: [403, 404],
  },
  ...reportItemRoutes({
    tag: "Insights",
    one: "insight",
    many: "insights",
    op: "Insight",
    path: "insights",
    permission: "ai_insights",
    create: s.createInsightBody,
    update: s.updateInsightBody,
    response: s.agentInsight,
  }),
  ...reportItemRoutes({
    tag: "Social media",
    one: "post",
    many: "social media posts",
    op: "SocialPost",
    path: "social-posts",
    permission: "social_media",
    response: s.socialMediaPost,
    listQuery: s.socialPostListQuery,
    order: "newest posted_at first",
  }),
  {
    method: "post",
    operationId: "importSocialPosts",
    path: "/v1/reports/{reportId}/social-posts/import",
    tag: "Social media",
    summary: "Import post engagement from JSON or CSV: upsert by platform and external_id (needs social_media:create and update)",
    description:
      "Up to 500 records, 4 MiB. Each record is created, updated, unchanged, skipped_stale (its metrics_at is older than the stored one) or error (named: posts[2].likes …, or in CSV line 4: likes …; the others are still applied unless atomic=true). The same body sent again answers every record unchanged.",
    params: reportIdParam,
    query: s.importQuery,
    body: s.importBody,
    csvBody: s.importCsv,
    response: s.mutationOf(s.importResult),
    responseDescription: "What happened to each record",
    errors: [...BODY_ERRORS, 403, 404],
  },
  {
    method: "get",
    operationId: "getSocialEngagement",
    path: "/v1/reports/{reportId}/social-engagement",
    tag: "Social media",
    summary: "A report's social engagement: totals and per platform (needs social_media:read)",
    params: reportIdParam,
    response: s.dataOf(s.engagement),
    responseDescription: "The engagement",
    errors: [403, 404],
  },
  {
    method: "post",
    operationId: "generateSummary",
    path: "/v1/reports/{reportId}/summary",
    tag: "Summaries",
    summary: "Write the report's executive summary from its facts, valuation, showings, engagement and insights (needs ai_insights:create; reports:update to save)",
    description:
      "The template provider (default) writes offline and deterministically; an OpenAI-compatible model can be configured (README \"AI summaries\"). The text is screened for fair-housing phrases and for numbers that are not in the inputs (warnings). Saved as the report's executive_summary unless save is false.",
    params: reportIdParam,
    body: s.summaryBody,
    bodyOptional: true,
    response: s.mutationOf(s.generatedSummary),
    responseDescription: "The summary",
    errors: [...BODY_ERRORS, 403, 404, 422, 502, 504],
  },
  ...shareRoutes(),
  ...webhookRoutes(),
  {
    method: "get",
    operationId: "getCurrentUser",
    path: "/v1/users/me",
    tag: "Users",
    summary: "The team, subscription, API key and rate-limit status of the key in use",
    response: s.dataOf(s.currentUser),
    responseDescription: "The current-user record",
    errors: [],
  },
];

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

function toRouteConfig(route: Route): RouteConfig {
  const config = routeConfig(route);
  return route.method === "post" ? withIdempotencyKey(config) : config;
}

function routeConfig(route: Route): RouteConfig {
  return {
    method: route.method,
    path: route.path,
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description: route.description,
    request: {
      params: route.params,
      query: route.query,
      body: route.body && {
        required: !route.bodyOptional,
        content: { "application/json": { schema: route.body }, ...(route.csvBody ? { "text/csv": { schema: route.csvBody } } : {}) },
      },
    },
    responses: {
      [route.status ?? 200]: route.binary
        ? { description: route.responseDescription, headers: RATE_LIMIT_HEADERS, content: { [route.binary]: { schema: z.string().meta({ format: "binary" }) } } }
        : json(route.response, route.responseDescription),
      ...errors([...route.errors, 401, 405, 429].sort()),
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
  for (const route of routes) registry.registerPath(toRouteConfig(route));
  cached = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: { title: "Property Report Service API", version: API_VERSION, description: DESCRIPTION },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }],
    tags: TAGS.map((name) => ({ name })),
  });
  return cached;
}

/** The version of the REST contract (spec.md). */
export const API_VERSION = "1.0.1";

// Swagger UI's files are served under their package version with a year-long, immutable cache: an upgrade changes
// their URLs, so a browser never runs a stale copy and never asks twice for the same one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SWAGGER_UI_VERSION = (require("swagger-ui-dist/package.json") as { version: string }).version;
const ASSETS = `/docs/assets/${SWAGGER_UI_VERSION}`;
/**
 * The package's directory. Its own absolute-path module, not the package's main one: that one also evaluates the
 * browser bundle (about 0.3 s of CPU in every process that builds the app) only to export it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const swaggerUiDir = require("swagger-ui-dist/absolute-path.js") as () => string;

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Property Report Service API</title>
  <link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
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
