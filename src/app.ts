// The Express app: one pipeline for both interfaces.
// security headers → health/readiness → public pages → auth + rate limit → request context
//   → (REST translator | GraphQL Yoga) → Pothos schema → Prisma.
import { createHash } from "node:crypto";
import compression from "compression";
import express, { type Express, type Request, type RequestHandler } from "express";
import { GraphQLError } from "graphql";
import { createYoga, maskError } from "graphql-yoga";
import { authenticate } from "./auth/middleware";
import type { RateLimiter } from "./auth/rate-limit";
import { useRequestCost } from "./yoga/use-request-cost";
import { useAutomaticPersistedQueries } from "./yoga/use-automatic-persisted-queries";
import { useTrustedDocuments } from "./yoga/use-trusted-documents";
import { config } from "./config";
import { databaseFailure } from "./db/errors";
import { countRequests } from "./http/activity";
import { UPLOAD_LIMIT } from "./http/bodies";
import { errorHandler, rejectMalformedUrl, sendError } from "./http/errors";
import { GRAPHIQL_OPTIONS, graphiqlPage as renderGraphiQLPage } from "./http/graphiql";
import { checkGraphQLTransport } from "./http/graphql-transport";
import { dashboardRouter } from "./http/dashboard";
import { healthRouter } from "./http/health";
import { docsPolicy, graphiqlPolicy, securityHeaders } from "./http/security";
import { accessLog, crossOrigin } from "./http/requests";
import { useHttpCache } from "./yoga/use-http-cache";
import { streamRequests, useLiveStreams } from "./yoga/use-live-streams";
import { graphqlWebSockets } from "./yoga/websocket";
import { logger } from "./logger";
import { metricsEnabled, metricsOnMainPort } from "./observability/metrics";
import { requestMetrics } from "./observability/series";
import { useGraphQLPhaseMetrics } from "./yoga/use-graphql-phase-metrics";
import { useExecutionSpans } from "./yoga/use-execution-spans";
import { tracing } from "./observability/tracing";
import { docsRouter, restRouter } from "./rest";
import { API_VERSION } from "./rest/openapi";
import { readsReports } from "./rest/table";
import { routeTemplate } from "./rest/route-templates";
import { schema } from "./schema";
import { sharePagesRouter } from "./share/router";
import { useCompiledExecution } from "./yoga/use-compiled-execution";
import { useQueryLimits } from "./yoga/use-query-limits";
import { useIncrementalDelivery } from "./yoga/use-incremental-delivery";
import { useReadCost } from "./yoga/use-read-cost";
import { useRawJsonResults } from "./yoga/use-raw-json-results";

/** GET / without a key: where everything is. */
const INDEX = {
  name: "Property Report Service",
  version: API_VERSION,
  links: { rest: "/v1", docs: "/docs", dashboard: "/dashboard", openapi: "/v1/openapi.json", graphql: "/graphql", health: "/health", ready: "/ready" },
  authentication: "Authorization: Bearer prs_sk_live_… on every request to /v1 and /graphql",
};

export interface AppDependencies {
  rateLimiter: RateLimiter;
}

/** A browser opening /graphql: the GraphiQL page itself needs no key (a browser cannot send one on navigation). */
const isGraphiQLPage = (req: Request) =>
  req.method === "GET" && req.path === "/graphql" && req.query.query === undefined && req.accepts(["application/json", "text/html"]) === "text/html";

/** Bodies of every route, /graphql included, are refused (413) past this size (docs/api.md "Robustness"). */
const BODY_LIMIT = "1mb";

/**
 * GraphQL errors that are a database failure (unreachable: 503 with Retry-After; time budget: 504) keep that
 * meaning instead of Yoga's masked "Unexpected error." (the HTTP status follows, as for GraphQL-over-HTTP errors).
 */
const maskDatabaseFailures: typeof maskError = (error, message, isDev) => {
  const failure = databaseFailure(error instanceof GraphQLError ? error.originalError : error);
  if (!failure) return maskError(error, message, isDev);
  const headers: Record<string, string> = failure.retryAfter ? { "Retry-After": String(failure.retryAfter) } : {};
  const code = failure.status === 503 ? "SERVICE_UNAVAILABLE" : "TIMEOUT";
  return new GraphQLError(failure.message, { extensions: { code, status: failure.status, http: { status: failure.status, headers } } });
};

/** GraphQL's phase durations (metrics on) and a span around each execution (traces on). */
const observed = () => [...(metricsEnabled ? [useGraphQLPhaseMetrics()] : []), ...(tracing ? [useExecutionSpans()] : [])];

/**
 * The key-less parts of the site, each entered only by requests for its paths: a part is named by an exact path or
 * by a first segment ("/docs" takes /docs and everything below it), letters in any case as Express routes them, and
 * its routes see the full path. The API's requests pass all of them in one step instead of walking each part's
 * router: that walk measured ~6 % of the service's CPU per REST detail.
 */
function keylessParts(parts: Record<string, RequestHandler>): RequestHandler {
  const named = new Map(Object.entries(parts).map(([path, part]) => [path.toLowerCase(), part]));
  return (req, res, next) => {
    const path = req.path.toLowerCase();
    const slash = path.indexOf("/", 1);
    const part = named.get(path) ?? (slash > 0 ? named.get(path.slice(0, slash)) : undefined);
    return part ? part(req, res, next) : next();
  };
}

export function buildApp({ rateLimiter }: AppDependencies): Express {
  return assembleApp(authenticate(rateLimiter, { checkedByStatement: readsReports, routeOf: routeTemplate }), rateLimiter);
}

/**
 * The app around `authentication`, the step that checks the caller and sets `res.locals.context` (buildApp: API key
 * and rate limit; bench/server.ts measures their cost against a step that sets a fixed context).
 */
export function assembleApp(authentication: RequestHandler, rateLimiter: RateLimiter): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.TRUST_PROXY);

  // Rendered once, when first asked for: the page is served as it is, and its content security policy allows its
  // inline script by hash.
  let graphiql: { page: string; headers: RequestHandler; tag: string } | undefined;
  const graphiqlPage = () => {
    if (!graphiql) {
      const page = renderGraphiQLPage();
      // The page is 9 MB (3 MB compressed): browsers keep it and revalidate it by its ETag (304 until it changes).
      const tag = `"${createHash("sha256").update(page).digest("base64url").slice(0, 27)}"`;
      graphiql = { page, headers: graphiqlPolicy(page), tag };
    }
    return graphiql;
  };

  const yoga = createYoga<{ req: Request; res: express.Response }>({
    schema,
    graphqlEndpoint: "/graphql",
    // Over HTTP the auth step's context; a WebSocket operation brings its own (src/yoga/websocket.ts).
    context: ({ res }) => (res ? res.locals.context : {}),
    graphiql: GRAPHIQL_OPTIONS,
    renderGraphiQL: () => graphiqlPage().page,
    landingPage: false,
    cors: false, // crossOrigin() answers for every route, /graphql included
    maskedErrors: { maskError: maskDatabaseFailures },
    // The engine REST runs on too (documents with @defer/@stream on graphql-tools' executor instead), the query limits every client document is checked against, the points a mutation
    // request pays for each root field beyond its first (after the limits: a refused document pays nothing more), the
    // points each operation costs (read cost, priced by the limits' estimate), and the one-statement read path's JSON
    // text answered as it is.
    // The HTTP cache first: a GET it can answer (304, a kept answer) runs nothing else. Then persisted queries and
    // trusted documents: a hash or documentId becomes its text before anything reads the query.
    plugins: [useHttpCache(), useAutomaticPersistedQueries(), ...useTrustedDocuments(), useCompiledExecution(), ...useIncrementalDelivery(), useQueryLimits(), useRequestCost(), useReadCost(), useRawJsonResults(), useLiveStreams(), ...observed()],
    logging: {
      debug: (...args) => logger.debug(args.map(String).join(" ")),
      info: (...args) => logger.info(args.map(String).join(" ")),
      warn: (...args) => logger.warn(args.map(String).join(" ")),
      error: (...args) => logger.error(args.map(String).join(" ")),
    },
  });

  // graphql-transport-ws at /graphql, on the upgrades of the server that serves this app (attachWebSockets).
  app.locals.webSockets = graphqlWebSockets(yoga as never, rateLimiter);

  if (metricsEnabled) app.use(requestMetrics()); // every request, by route template and status
  app.use(countRequests()); // background work (webhook deliveries) gives way while requests are answered
  app.use(accessLog()); // X-Request-Id and one log line per request
  app.use(compression()); // gzip/brotli for clients that accept it (JSON, the GraphiQL and docs pages)
  app.use(crossOrigin(config.CORS_ORIGINS)); // CORS headers; preflights answered here, without a key
  app.use(securityHeaders());
  const metrics = metricsOnMainPort(); // /metrics for METRICS_TOKEN bearers, unless it has a port of its own
  if (metrics) app.use(metrics);
  app.get("/", (_req, res) => void res.json(INDEX));
  // Browsers ask for it on every page (the share page, the dashboard): no icon, and no 401 in their consoles.
  app.get("/favicon.ico", (_req, res) => void res.set("Cache-Control", "public, max-age=86400").status(204).end());
  // Liveness and readiness: no key, no rate-limit count.
  const health = healthRouter(rateLimiter);
  const docs = express.Router().use(docsPolicy()).use("/docs", rejectMalformedUrl).use(docsRouter());
  const publicPages = sharePagesRouter(rateLimiter);
  app.use(
    keylessParts({
      "/health": health,
      "/ready": health,
      "/docs": docs,
      "/v1/openapi.json": docs,
      "/dashboard": dashboardRouter(), // the team dashboard's static files; its page calls /graphql with the key
      "/r": publicPages, // /r/<token>: a share link's page and PDF, no key (limited per address)
      "/s": publicPages, // /s/<token>: an open house's sign-in form (its own bounds)
    }),
  );
  app.use((req, res, next) => {
    if (!isGraphiQLPage(req)) return next();
    const { page, headers, tag } = graphiqlPage();
    headers(req, res, () => {
      res.setHeader("Cache-Control", "no-cache");
      res.setHeader("ETag", tag);
      if (req.headers["if-none-match"] === tag) return void res.status(304).end();
      res.type("html").send(page);
    });
  });
  app.use(authentication);
  app.use(rejectMalformedUrl); // after auth, so the answer carries the rate-limit headers like every other
  // Yoga reads a body Express has already read as it is (Buffer), so this one limit holds for GraphQL too.
  // A multipart request (the GraphQL multipart request spec: a photo's upload) may be as large as a photo's upload.
  const multipart = express.raw({ type: "multipart/form-data", limit: UPLOAD_LIMIT });
  app.use(yoga.graphqlEndpoint, checkGraphQLTransport, streamRequests, multipart, express.raw({ type: () => true, limit: BODY_LIMIT }), yoga.requestListener);
  app.use("/v1", restRouter());
  app.use((req, res) => sendError(res, 404, `Not found: ${req.method} ${req.path}`));
  app.use(errorHandler);
  return app;
}
