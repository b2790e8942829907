// REST's HTTP caching (src/http/http-cache.ts says what an ETag is made of): a read the route table declares
// `cacheable` carries an ETag and `Cache-Control: private, no-cache`, and is answered 304 when If-None-Match holds
// it; called by the route wrapper (./route.ts) before the handler.
import type { Request, Response } from "express";
import { confirmKeyRow } from "../auth/key-check";
import type { Context } from "../context";
import { anyTag, CACHE_CONTROL, etagAt, etagOf, matches, utcDay } from "../http/http-cache";

/**
 * `If-None-Match: *` on a REST read: the handler answers as it would unconditionally, and a 200 (the resource exists
 * for this key) is sent as a 304 without its body; a 404, 403 or 401 stays what it is.
 */
function notModifiedIfFound(res: Response): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, status: number, ...rest: unknown[]) {
    if (status === 200) {
      status = this.statusCode = 304;
      for (const name of ["Content-Type", "Content-Length", "Content-Encoding"]) this.removeHeader(name);
    }
    return (writeHead as (...args: unknown[]) => Response).call(this, status, ...rest);
  } as Response["writeHead"];
}

/** Sets the ETag and Cache-Control, taken back if the answer turns out not to be a 200 (an error carries neither). */
function setValidators(res: Response, etag: string): void {
  res.setHeader("ETag", etag);
  res.setHeader("Cache-Control", CACHE_CONTROL);
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, status: number, ...rest: unknown[]) {
    if (status !== 200 && status !== 304) {
      this.removeHeader("ETag");
      this.removeHeader("Cache-Control");
    }
    return (writeHead as (...args: unknown[]) => Response).call(this, status, ...rest);
  } as Response["writeHead"];
}

/**
 * The ETag of this GET for its key, after the key is confirmed when the auth step admitted it without reading it
 * (ARCHITECTURE.md "The key check": a row that did not hold gets no 304; the handler runs, its executor answers
 * nothing, and the auth layer answers for the key as it is now). Answers 304 when If-None-Match holds it (true:
 * answered), else sets the validators and returns false.
 */
async function notModified(req: Request, res: Response, context: Context, etag: string): Promise<boolean> {
  if (!matches(req.headers["if-none-match"], etag)) {
    setValidators(res, etag);
    return false;
  }
  if (context.keyCheck && !(context.keyCheck.held ?? (await confirmKeyRow(context.keyCheck)))) return false;
  setValidators(res, etag);
  res.status(304).end();
  return true;
}

/**
 * Labels a 200 with the ETag of the version its own statement read (context.dataVersion), when it read one: an answer
 * the resolvers gave instead carries no ETag (its version was not read in its data's snapshot).
 */
function labelWhenSent(req: Request, res: Response, context: Context): void {
  const day = utcDay(); // before the handler reads the data
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, status: number, ...rest: unknown[]) {
    const version = context.dataVersion?.value;
    if (status === 200 && version !== undefined) {
      this.setHeader("ETag", etagAt(req, context, version, day));
      this.setHeader("Cache-Control", CACHE_CONTROL);
    }
    return (writeHead as (...args: unknown[]) => Response).call(this, status, ...rest);
  } as Response["writeHead"];
}

/**
 * REST: answers a read 304 when the client holds the current answer (true: answered), else labels the answer the
 * handler is about to send with its ETag. Called by the REST route wrapper (src/rest/route.ts) before the handler of
 * each route declared `cacheable`.
 * A conditional request reads the version first, so a match builds nothing; so does any read the resolvers answer.
 * An unconditional read the one-statement path answers (`oneStatement`) costs no statement more: that statement
 * reads the version with its data (src/schema/sql-json/run.ts), and the answer is labelled as it is sent.
 */
export async function restNotModified(req: Request, res: Response, oneStatement = false): Promise<boolean> {
  const context = res.locals.context as Context | undefined;
  if ((req.method !== "GET" && req.method !== "HEAD") || !context?.viewer) return false; // HEAD: the GET's validators
  if (oneStatement && req.headers["if-none-match"] === undefined) {
    context.dataVersion = {};
    labelWhenSent(req, res, context);
    return false;
  }
  if (await notModified(req, res, context, await etagOf(req, context))) return true;
  if (anyTag(req.headers["if-none-match"])) notModifiedIfFound(res);
  return false;
}
