// Glue shared by every REST route: the request context, error envelope and method-not-allowed answers.
import type { NextFunction, Request, Response, Router } from "express";
import { keyCheckAnswered, keyCheckFailed } from "../auth/middleware";
import { sendError } from "../http/errors";
import { RestError } from "./graphql";

type Handler = (req: Request, res: Response) => Promise<void>;

async function answer(fn: Handler, req: Request, res: Response): Promise<void> {
  try {
    await fn(req, res);
  } catch (err) {
    // A key admitted without being read for this request: the auth layer says whether the error stands, the request
    // was refused, or it runs once more for the key as it is now (ARCHITECTURE.md "The key check").
    const verdict = res.locals.context?.keyCheck ? await keyCheckFailed(req, res, err) : "stands";
    if (verdict === "again") return answer(fn, req, res);
    if (verdict === "refused") return;
    if (err instanceof RestError) return sendError(res, err.status, err.message);
    throw err;
  }
  const keyCheck = res.locals.context?.keyCheck;
  if (keyCheck) keyCheckAnswered(keyCheck);
}

/** Wraps a route handler: RestErrors become the error envelope; anything else goes to the error handler. */
export const handle =
  (fn: Handler) =>
  (req: Request, res: Response, next: NextFunction): void => {
    answer(fn, req, res).catch(next);
  };

/** Answers 405 with an Allow header for methods a path does not serve. */
export function allowOnly(router: Router, path: string, methods: string[]): void {
  router.all(path, (_req, res) => {
    res.setHeader("Allow", methods.join(", "));
    sendError(res, 405, `Method not allowed; this path accepts ${methods.join(", ")}`);
  });
}
