// Glue shared by every REST route: the request context, error envelope and method-not-allowed answers.
import type { NextFunction, Request, Response, Router } from "express";
import { sendError } from "../http/errors";
import { RestError } from "./graphql";

type Handler = (req: Request, res: Response) => Promise<void>;

/** Wraps a route handler: RestErrors become the error envelope; anything else goes to the error handler. */
export const handle =
  (fn: Handler) =>
  (req: Request, res: Response, next: NextFunction): void => {
    fn(req, res).catch((err: unknown) => (err instanceof RestError ? sendError(res, err.status, err.message) : next(err)));
  };

/** Answers 405 with an Allow header for methods a path does not serve. */
export function allowOnly(router: Router, path: string, methods: string[]): void {
  router.all(path, (_req, res) => {
    res.setHeader("Allow", methods.join(", "));
    sendError(res, 405, `Method not allowed; this path accepts ${methods.join(", ")}`);
  });
}
