// REST v1: thin translators over the GraphQL schema. Each route checks the shape of its input, maps names,
// runs one pre-parsed GraphQL operation in-process and maps the result to the body of spec.md.
import { Router } from "express";
import { idempotencyKeys } from "../http/idempotency";
import { comparablesRouter } from "./comparables";
import { insightsRouter } from "./insights";
import { reportsRouter } from "./reports";
import { shareLinksRouter } from "./share-links";
import { showingsRouter } from "./showings";
import { socialPostsRouter } from "./social-posts";
import { summaryRouter } from "./summary";
import { usersRouter } from "./users";
import { webhooksRouter } from "./webhooks";

export function restRouter(): Router {
  const router = Router();
  router.use(idempotencyKeys()); // Idempotency-Key on every POST, before any route
  router.use(usersRouter());
  router.use(reportsRouter());
  router.use(shareLinksRouter());
  router.use(showingsRouter());
  router.use(comparablesRouter());
  router.use(insightsRouter());
  router.use(socialPostsRouter());
  router.use(summaryRouter());
  router.use(webhooksRouter());
  return router;
}

export { docsRouter } from "./openapi";
