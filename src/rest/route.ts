// Glue shared by every REST route: the request context, error envelope and method-not-allowed answers.
import type { NextFunction, Request, Response, Router } from "express";
import { KeyChanged } from "../context";
import { isDatabaseUnavailable } from "../db/errors";
import { sendError } from "../http/errors";
import { RestError } from "./graphql";

type Handler = (req: Request, res: Response) => Promise<void>;

async function answer(fn: Handler, req: Request, res: Response): Promise<void> {
  try {
    await fn(req, res);
  } catch (err) {
    // Answered before its key row was confirmed (context.ts, KeyCheck): because the key changed, or an error came
    // first. The key is read, and the request answered for the key as it is now: refused, or run again.
    // (A database that cannot be reached answers 503 either way: not asked again.)
    const keyCheck = res.locals.context?.keyCheck;
    if (keyCheck?.pending && !isDatabaseUnavailable(err)) {
      const now = await keyCheck.recheck();
      if ("status" in now) {
        delete (res.locals as { context?: unknown }).context; // the access log names no key for a refused one
        return sendError(res, now.status, now.message);
      }
      if (err instanceof KeyChanged) {
        res.locals.context = now;
        return answer(fn, req, res);
      }
    }
    if (err instanceof RestError) return sendError(res, err.status, err.message);
    throw err;
  }
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
