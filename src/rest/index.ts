// REST v1: thin translators over the GraphQL schema. Each route checks the shape of its input, maps names,
// runs one pre-parsed GraphQL operation in-process and maps the result to the body (docs/api.md "Endpoints"); every
// route is declared once in the route table (./table.ts).
import { Router, type NextFunction, type Request, type Response } from "express";
import type { Context } from "../context";
import { TRUSTED_ONLY_MESSAGE } from "../graphql-documents/documents";
import { sendError } from "../http/errors";
import { restCosts } from "../schema/read-cost";
import { idempotencyKeys } from "../http/idempotency";
import { routerOf } from "./route";
import { ROUTES } from "./table";

/** REST runs the service's own documents, not the team's registered ones: a key limited to those may not use it. */
function refuseTrustedOnlyKeys(_req: Request, res: Response, next: NextFunction): void {
  if ((res.locals.context as Context | undefined)?.viewer?.trustedDocumentsOnly) return sendError(res, 403, TRUSTED_ONLY_MESSAGE);
  next();
}

export function restRouter(): Router {
  const router = Router();
  router.use(refuseTrustedOnlyKeys);
  router.use(restCosts()); // X-Cost on every answer: the points the request was charged (src/schema/read-cost.ts)
  router.use(idempotencyKeys()); // Idempotency-Key on every POST, before any route
  router.use(routerOf(ROUTES));
  return router;
}

export { docsRouter } from "./openapi";
