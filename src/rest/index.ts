// REST v1: thin translators over the GraphQL schema. Each route checks the shape of its input, maps names,
// runs one pre-parsed GraphQL operation in-process and maps the result to the body (docs/api.md "Endpoints"); every
// route is declared once in the route table (./table.ts).
import { Router } from "express";
import { restCosts } from "../schema/read-cost";
import { idempotencyKeys } from "../http/idempotency";
import { routerOf } from "./route";
import { ROUTES } from "./table";

export function restRouter(): Router {
  const router = Router();
  router.use(restCosts()); // X-Cost on every answer: the points the request was charged (src/schema/read-cost.ts)
  router.use(idempotencyKeys()); // Idempotency-Key on every POST, before any route
  router.use(routerOf(ROUTES));
  return router;
}

export { docsRouter } from "./openapi";
