// The Express app: one pipeline for both interfaces.
// public pages → auth + rate limit → request context → (REST translator | GraphQL Yoga) → Pothos schema → Prisma.
import { renderGraphiQL } from "@graphql-yoga/render-graphiql";
import express, { type Express, type Request, type RequestHandler } from "express";
import { createYoga } from "graphql-yoga";
import { authenticate } from "./auth/middleware";
import type { RateLimiter } from "./auth/rate-limit";
import { config } from "./config";
import { errorHandler, sendError } from "./http/errors";
import { logger } from "./logger";
import { docsRouter, restRouter } from "./rest";
import { schema } from "./schema";
import { useCompiledExecution } from "./schema/engine";
import { useQueryLimits } from "./schema/limits";

const GRAPHIQL_QUERY = `# Put your API key in the Headers panel below: {"Authorization": "Bearer prs_sk_live_…"}
query Overview {
  me {
    team { name reportsCount }
    rateLimit { tier remaining resetsAt }
  }
  reports(limit: 5) {
    total
    items {
      id address city state price status showingsCount
      showings { showingDate attendeeName eventType }
    }
  }
}
`;

export interface AppDependencies {
  rateLimiter: RateLimiter;
}

/** A browser opening /graphql: the GraphiQL page itself needs no key (a browser cannot send one on navigation). */
const isGraphiQLPage = (req: Request) =>
  req.method === "GET" && req.path === "/graphql" && req.query.query === undefined && req.accepts(["application/json", "text/html"]) === "text/html";

export function buildApp({ rateLimiter }: AppDependencies): Express {
  return assembleApp(authenticate(rateLimiter));
}

/**
 * The app around `authentication`, the step that checks the caller and sets `res.locals.context` (buildApp: API key
 * and rate limit; bench/server.ts measures their cost against a step that sets a fixed context).
 */
export function assembleApp(authentication: RequestHandler): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.TRUST_PROXY);

  const yoga = createYoga<{ req: Request; res: express.Response }>({
    schema,
    graphqlEndpoint: "/graphql",
    context: ({ res }) => res.locals.context,
    graphiql: { title: "Property Report Service", defaultQuery: GRAPHIQL_QUERY, headers: '{"Authorization": "Bearer "}' },
    renderGraphiQL,
    landingPage: false,
    // The engine REST runs on too, and the query limits every client document is checked against.
    plugins: [useCompiledExecution(), useQueryLimits()],
    logging: {
      debug: (...args) => logger.debug(args.map(String).join(" ")),
      info: (...args) => logger.info(args.map(String).join(" ")),
      warn: (...args) => logger.warn(args.map(String).join(" ")),
      error: (...args) => logger.error(args.map(String).join(" ")),
    },
  });

  app.get("/health", (_req, res) => void res.json({ status: "ok" }));
  app.use(docsRouter());
  app.use((req, res, next) => (isGraphiQLPage(req) ? yoga.requestListener(req, res) : next()));
  app.use(authentication);
  app.use(yoga.graphqlEndpoint, yoga.requestListener);
  app.use("/v1", restRouter());
  app.use((req, res) => sendError(res, 404, `Not found: ${req.method} ${req.path}`));
  app.use(errorHandler);
  return app;
}
