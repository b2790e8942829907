// REST v1: thin translators over the GraphQL schema. Each route checks the shape of its input, maps names,
// runs one pre-parsed GraphQL operation in-process and maps the result to the body of spec.md.
import { Router } from "express";
import { usersRouter } from "./users";

export function restRouter(): Router {
  const router = Router();
  router.use(usersRouter());
  return router;
}

/** Public documentation pages (no key needed): filled in by the OpenAPI module. */
export function docsRouter(): Router {
  return Router();
}
