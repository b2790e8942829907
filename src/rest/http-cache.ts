// REST's HTTP caching (src/http/http-cache.ts says what an ETag is made of): a read the route table declares
// `cacheable` carries an ETag and `Cache-Control: private, no-cache`, and is answered 304 when If-None-Match holds
// it; called by the route wrapper (./route.ts) before the handler.
import type { Request, Response } from "express";
import onHeaders from "on-headers";
import { settleRiders, type Context, type Rider } from "../context";
import { teamVersion, teamVersionColumn } from "../db/team-version";
import { anyTag, CACHE_CONTROL, etagAt, matches, utcDay } from "../http/http-cache";

/** Calls `edit(status)` just before the response's head is written; the status it returns is the one sent. */
function beforeHead(res: Response, edit: (status: number) => number): void {
  onHeaders(res, () => void (res.statusCode = edit(res.statusCode)));
}

/**
 * `If-None-Match: *` on a REST read: the handler answers as it would unconditionally, and a 200 (the resource exists
 * for this key) is sent as a 304 without its body; a 404, 403 or 401 stays what it is.
 */
function notModifiedIfFound(res: Response): void {
  beforeHead(res, (status) => {
    if (status !== 200) return status;
    for (const name of ["Content-Type", "Content-Length", "Content-Encoding"]) res.removeHeader(name);
    return 304;
  });
}

/**
 * Labels a 200 (or the 304 it became) with the ETag of `version` (undefined: not known, no label), made as the answer
 * is sent: for the key as it is then (a key that changed since this process read it was brought up to date by its
 * check, src/auth/key-check.ts). An error carries neither the ETag nor Cache-Control.
 */
function labelWhenSent(req: Request, res: Response, context: Context, version: () => string | undefined): void {
  const day = utcDay(); // before the handler reads the data
  beforeHead(res, (status) => {
    const value = version();
    if (status !== 200 && status !== 304) {
      res.removeHeader("ETag");
      res.removeHeader("Cache-Control");
    } else if (value !== undefined) {
      res.setHeader("ETag", etagAt(req, context, value, day));
      res.setHeader("Cache-Control", CACHE_CONTROL);
    }
    return status;
  });
}

/** The team's data version, asked of the statement that answers the read (context.ts, Rider). */
class VersionRider implements Rider {
  readonly name = "version";
  readonly params: readonly unknown[];
  value?: string;
  settled = false;

  constructor(teamId: string) {
    this.params = [teamId];
  }

  column(first: number): string {
    return teamVersionColumn(first);
  }

  read(value: unknown): void {
    this.value = typeof value === "string" ? value : "0";
    this.settled = true;
  }

  /** Answered otherwise (the resolvers): no version read in the data's snapshot, so no ETag. */
  settle(): Promise<undefined> {
    this.settled = true;
    return Promise.resolve(undefined);
  }
}

/**
 * REST: answers a read 304 when the client holds the current answer (true: answered), else labels the answer the
 * handler is about to send with its ETag. Called by the REST route wrapper (src/rest/route.ts) before the handler of
 * each route declared `cacheable`.
 * A conditional request reads the version first, so a match builds nothing; so does any read the resolvers answer.
 * An unconditional read the one-statement path answers (`oneStatement`) costs no statement more: that statement
 * reads the version with its data (a rider), and the answer is labelled as it is sent.
 */
export async function restNotModified(req: Request, res: Response, oneStatement = false): Promise<boolean> {
  const context = res.locals.context as Context | undefined;
  if ((req.method !== "GET" && req.method !== "HEAD") || !context?.viewer) return false; // HEAD: the GET's validators
  const condition = req.headers["if-none-match"];
  if (oneStatement && condition === undefined) {
    const rider = new VersionRider(context.viewer.teamId);
    (context.riders ??= []).push(rider);
    labelWhenSent(req, res, context, () => rider.value);
    return false;
  }
  const day = utcDay();
  const version = await teamVersion(context.viewer.teamId);
  // A match is answered only for the key as it is: the request's riders (a key admitted unread) are settled first, and
  // the ETag made again for the key they leave (its permissions may have changed). A refused key gets no 304: the
  // handler runs, and its executor answers the refusal.
  if (matches(condition, etagAt(req, context, version, day)) && !(await settleRiders(context))) {
    const etag = etagAt(req, context, version, day);
    if (matches(condition, etag)) {
      res.setHeader("ETag", etag);
      res.setHeader("Cache-Control", CACHE_CONTROL);
      res.status(304).end();
      return true;
    }
  }
  labelWhenSent(req, res, context, () => version);
  if (anyTag(condition)) notModifiedIfFound(res);
  return false;
}
