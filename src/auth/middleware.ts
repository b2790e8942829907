// Express middleware that authenticates the API key, applies the rate limit and counts usage, then hands the
// request context to REST or GraphQL. Runs once per HTTP request, so one request costs one point on either; a
// GraphQL request with several root mutation fields pays the rest before it runs (request-cost.ts).
// A request the statement answering it can check the key for (REST's report reads) is not held up by a lookup of
// its own when this process has seen the key: it runs with the row read last, and the statement compares that row
// with the stored one (./key-check.ts, a rider of the statement).
// A round trip costs more than the lookup itself (BENCHMARKS.md, scenario 4).
import type { NextFunction, Request, Response } from "express";
import { LRUCache } from "lru-cache";
import { config } from "../config";
import type { Context, Refusal } from "../context";
import { sendError } from "../http/errors";
import { limitedByAddress } from "../observability/series";
import { hashApiKey, isWellFormedKey, keyDisplayPrefix, rateKey } from "./keys";
import { isValidKey as isValid, KeyRider } from "./key-check";
import { findKey, keyReadsCostAStatement, touchKey, type KeyRow, type KeyUse } from "./key-lookup";
import { applyLimit, type RateLimiter, type RateLimitResult, type WindowCount } from "./rate-limit";
import { tierLimit } from "./tiers";
import { countAnswer, countCall } from "./usage";

/**
 * A refused request: the REST error envelope, or on /graphql a GraphQL response ({ errors: [{ message, extensions }] })
 * that GraphQL clients and GraphiQL can show, with the same status.
 */
function refuse(req: Request, res: Response, status: 401 | 429, message: string): void {
  if (req.path !== "/graphql") return sendError(res, status, message);
  const code = status === 401 ? "UNAUTHENTICATED" : "RATE_LIMITED";
  res.status(status).json({ errors: [{ message, extensions: { code, status } }] });
}

const LAST_USED_EVERY_MS = 60_000;
/** Valid keys remembered per process (bounded): for last_used_at writes and for counting a key with its lookup. */
const REMEMBERED_KEYS = 10_000;
const lastUsedWrites = new LRUCache<string, number>({ max: REMEMBERED_KEYS }); // keyId → when this process last wrote last_used_at
/**
 * Keys this process found valid, by hash, with the row it read last. Only their count starts together with the
 * lookup (one round trip instead of two); any other hash is looked up first, so an unknown key never gets a counter
 * of its own (in memory or in Redis): it is counted for its client address only.
 */
const knownKeys = new LRUCache<string, KeyRow>({ max: REMEMBERED_KEYS });

declare module "express-serve-static-core" {
  interface Locals {
    context: Context;
  }
}


function bearerToken(header: string | undefined): string | null {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match && isWellFormedKey(match[1]) ? match[1] : null;
}

export function setRateLimitHeaders(res: Response, r: RateLimitResult): void {
  res.setHeader("X-RateLimit-Limit", String(r.limit));
  res.setHeader("X-RateLimit-Remaining", String(r.remaining));
  res.setHeader("X-RateLimit-Reset", String(r.resetsAt));
  if (r.exceeded) res.setHeader("Retry-After", String(Math.max(1, r.resetsAt - Math.floor(Date.now() / 1000))));
  else res.removeHeader("Retry-After"); // set by an earlier answer for the same request (a key read again)
}

/**
 * Keeps last_used_at within a minute of the truth with at most one write per key per minute per process. The write
 * makes a new version of the key's row: the one it answers becomes the row this process knows, so the next request
 * is still checked by its own statement. Undefined when no write is due; never rejects.
 */
function touchLastUsed(keyHash: string, keyId: string, now: number, use: () => KeyUse): Promise<void> | undefined {
  if (now - (lastUsedWrites.get(keyId) ?? 0) < LAST_USED_EVERY_MS) return undefined;
  lastUsedWrites.set(keyId, now);
  return touchKey(keyHash, new Date(now), new Date(now - LAST_USED_EVERY_MS), use()).then(
    (row) => {
      if (row && knownKeys.has(keyHash)) knownKeys.set(keyHash, row);
    },
    () => void lastUsedWrites.delete(keyId),
  );
}

const RATE_LIMITED = "Rate limit exceeded. Please try again later.";

/** Counts an authenticated call (usage, last use); a promise while last_used_at is being written. */
function counted(keyHash: string, key: KeyRow, now: number, use: () => KeyUse): Promise<void> | undefined {
  countCall(key.team_id, key.id);
  return touchLastUsed(keyHash, key.id, now, use);
}

export interface AuthOptions {
  /**
   * Requests whose key may be read by the statement that answers them (REST's report reads, answered by one statement
   * that also checks the key: src/schema/sql-json). Only when reading a key costs a statement of its own.
   */
  checkedByStatement?: (req: Request) => boolean;
  /** The route template a request calls (for a key's last use: never the raw path); default: the path. */
  routeOf?: (req: Request) => string;
}

/** The request's context for `key` (valid), or the refusal when its budget is spent; sets the rate-limit headers. */
function admit(limiter: RateLimiter, req: Request, res: Response, token: string, key: KeyRow, count: WindowCount): Context | Refusal {
  const tier = key.rate_limit_tier;
  (res.locals as KeyLocals).keyId = key.id; // the answer is counted as this key's, refusal or not (authenticate)
  const result = applyLimit(count, tierLimit(tier));
  setRateLimitHeaders(res, result);
  if (result.exceeded) return { status: 429, message: RATE_LIMITED };
  return {
    viewer: { keyId: key.id, keyPrefix: keyDisplayPrefix(token), teamId: key.team_id, permissions: key.permissions, tier, trustedDocumentsOnly: key.trusted_documents_only },
    rateLimit: { tier, limit: result.limit, remaining: result.remaining, resetsAt: result.resetsAt },
    requestId: req.id,
    clientAddress: req.ip,
    rateLimiter: limiter,
    rateKey: rateKey(key),
  };
}

/** A caller whose key is not valid: limited per client address, so guessing keys is throttled. */
async function refuseKey(limiter: RateLimiter, req: Request, res: Response, keyHash: string | null): Promise<Refusal> {
  if (keyHash) knownKeys.delete(keyHash);
  // A request presenting no key (a browser tab, a health probe, a forgotten header) guesses nothing: it is
  // answered 401 without spending that budget, so it never turns the next wrong key's 401 into a 429.
  const ip = `ip:${req.ip}`;
  const presented = req.headers.authorization !== undefined;
  const anonymous = presented
    ? applyLimit(await limiter.hit(ip), config.RATE_LIMIT_ANONYMOUS)
    : { ...applyLimit(await limiter.peek(ip), config.RATE_LIMIT_ANONYMOUS), exceeded: false };
  setRateLimitHeaders(res, anonymous);
  if (anonymous.exceeded) limitedByAddress.add(res); // for the refusal counts of /metrics
  return anonymous.exceeded ? { status: 429, message: RATE_LIMITED } : { status: 401, message: "Invalid API key" };
}

/** What the auth step leaves on the response: the id of the (valid) key the request presented. */
type KeyLocals = { keyId?: string };

/** Hands the request on with its context, or answers its refusal. */
function proceed(req: Request, res: Response, next: NextFunction, answered: Context | Refusal): void {
  if ("status" in answered) return refuse(req, res, answered.status, answered.message);
  res.locals.context = answered;
  next();
}

export function authenticate(limiter: RateLimiter, options: AuthOptions = {}) {
  const checkedByStatement = options.checkedByStatement ?? (() => false);
  const routeOf = options.routeOf ?? ((req: Request) => req.path);
  /** The request as a key's last use (read only when a last_used_at write is due). */
  const useOf = (req: Request) => (): KeyUse => ({ ip: req.ip ?? null, route: `${req.method} ${routeOf(req)}` });
  const deferrable = (req: Request) => keyReadsCostAStatement() && checkedByStatement(req);
  /** Counts a request of a key in its hourly budget (the row gives the limit the count may be taken in blocks for). */
  const countKey = (row: KeyRow) => limiter.hit(rateKey(row), undefined, tierLimit(row.rate_limit_tier));

  /** Reads the key and answers for it: the context, or the refusal (its headers set). `count`: already counted. */
  async function checked(req: Request, res: Response, token: string | null, keyHash: string | null, count?: WindowCount): Promise<Context | Refusal> {
    // The key (see key-lookup.ts for when it is read) and, for a key known valid, its rate-limit count in parallel.
    const known = keyHash ? knownKeys.get(keyHash) : undefined;
    const [key, earlyCount] =
      count || !known
        ? [keyHash ? await findKey(keyHash) : undefined, count]
        : await Promise.all([findKey(keyHash!), countKey(known)]);
    const now = Date.now();
    if (!isValid(key, now)) return refuseKey(limiter, req, res, keyHash);
    knownKeys.set(keyHash!, key);
    // A count taken by the row seen last is of the same budget unless the key was rolled since: then counted again.
    const sameBudget = earlyCount && (!known || rateKey(known) === rateKey(key));
    const context = admit(limiter, req, res, token!, key, sameBudget ? earlyCount : await countKey(key));
    // Waits for a last_used_at write (once a minute): the key's next request then runs with the version it made.
    if (!("status" in context)) await counted(keyHash!, key, now, useOf(req));
    return context;
  }

  /**
   * A key this process found valid, on a request whose statement checks it: answered with the row seen last, which
   * the statement compares with the stored one (./key-check.ts).
   */
  function deferred(req: Request, res: Response, token: string, keyHash: string, known: KeyRow, count: WindowCount): Context | Promise<Context | Refusal> {
    const context = admit(limiter, req, res, token, known, count);
    // Past its budget by the row seen last: read the key, so a key revoked meanwhile still gets its 401.
    if ("status" in context) return checked(req, res, token, keyHash, count);
    const use = useOf(req);
    context.riders = [
      new KeyRider(keyHash, known, context, {
        recheck: () => checked(req, res, token, keyHash, count),
        count: () => void counted(keyHash, known, Date.now(), use),
        forget: () => delete (res.locals as { context?: unknown }).context,
      }),
    ];
    return context;
  }

  /**
   * The request's context or its refusal. At once (no promise, no round trip) for a key this process knows on a
   * request its statement checks, while this process holds a point of the key's block (rate-limit.ts).
   */
  function answer(req: Request, res: Response): Context | Refusal | Promise<Context | Refusal> {
    const token = bearerToken(req.headers.authorization);
    const keyHash = token ? hashApiKey(token) : null;
    const known = keyHash ? knownKeys.get(keyHash) : undefined;
    if (!known || !isValid(known, Date.now()) || !deferrable(req)) return checked(req, res, token, keyHash);
    const held = limiter.hitHeld(rateKey(known));
    if (held) return deferred(req, res, token!, keyHash!, known, held);
    return countKey(known).then((count) => deferred(req, res, token!, keyHash!, known, count));
  }

  return (req: Request, res: Response, next: NextFunction): void => {
    // Each answer to a valid key, by route template and outcome (usage.ts countAnswer): counted once it is sent.
    if (req.headers.authorization !== undefined) {
      res.once("close", () => {
        const { keyId } = res.locals as KeyLocals;
        if (keyId && res.writableFinished) countAnswer(keyId, `${req.method} ${routeOf(req)}`, res.statusCode);
      });
    }
    try {
      const answered = answer(req, res);
      if (answered instanceof Promise) answered.then((a) => proceed(req, res, next, a)).catch(next);
      else proceed(req, res, next, answered);
    } catch (err) {
      next(err);
    }
  };
}
