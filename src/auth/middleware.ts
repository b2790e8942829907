// Express middleware that authenticates the API key, applies the rate limit and counts usage, then hands the
// request context to REST or GraphQL. Runs once per HTTP request, so one request costs one point on either.
import type { NextFunction, Request, Response } from "express";
import { LRUCache } from "lru-cache";
import { config } from "../config";
import type { Context } from "../context";
import { prisma } from "../db";
import { sendError } from "../http/errors";
import { hashApiKey, isWellFormedKey, keyDisplayPrefix } from "./keys";
import { findKey } from "./key-lookup";
import { applyLimit, type RateLimiter, type RateLimitResult } from "./rate-limit";
import { tierLimit } from "./tiers";
import { countCall } from "./usage";

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
 * Hashes that were valid keys when this process last saw them. Only their count starts together with the lookup
 * (one round trip instead of two); any other hash is looked up first, so an unknown key never gets a counter of its
 * own (in memory or in Redis): it is counted for its client address only.
 */
const knownKeys = new LRUCache<string, true>({ max: REMEMBERED_KEYS });

declare module "express-serve-static-core" {
  interface Locals {
    context: Context;
  }
}

function bearerToken(header: string | undefined): string | null {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match && isWellFormedKey(match[1]) ? match[1] : null;
}

function setRateLimitHeaders(res: Response, r: RateLimitResult): void {
  res.setHeader("X-RateLimit-Limit", String(r.limit));
  res.setHeader("X-RateLimit-Remaining", String(r.remaining));
  res.setHeader("X-RateLimit-Reset", String(r.resetsAt));
  if (r.exceeded) res.setHeader("Retry-After", String(Math.max(1, r.resetsAt - Math.floor(Date.now() / 1000))));
}

/** Keeps last_used_at within a minute of the truth with at most one write per key per minute per process. */
function touchLastUsed(keyId: string, now: number): void {
  if (now - (lastUsedWrites.get(keyId) ?? 0) < LAST_USED_EVERY_MS) return;
  lastUsedWrites.set(keyId, now);
  void prisma.apiKey
    .updateMany({
      where: { id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now - LAST_USED_EVERY_MS) } }] },
      data: { lastUsedAt: new Date(now) },
    })
    .catch(() => lastUsedWrites.delete(keyId));
}

const RATE_LIMITED = "Rate limit exceeded. Please try again later.";

export function authenticate(limiter: RateLimiter) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const token = bearerToken(req.headers.authorization);
      const keyHash = token ? hashApiKey(token) : null;
      // The key (see key-lookup.ts for when it is read) and, for a key known valid, its rate-limit count in parallel.
      const [key, earlyCount] =
        keyHash && knownKeys.has(keyHash)
          ? await Promise.all([findKey(keyHash), limiter.hit(`key:${keyHash}`)])
          : [keyHash ? await findKey(keyHash) : undefined, null];
      const now = Date.now();
      if (!key || key.revoked_at || (key.expires_at && new Date(key.expires_at).getTime() <= now)) {
        if (keyHash) knownKeys.delete(keyHash);
        // Callers presenting a key that is not valid are limited per client address, so guessing keys is throttled.
        // A request presenting none (a browser tab, a health probe, a forgotten header) guesses nothing: it is
        // answered 401 without spending that budget, so it never turns the next wrong key's 401 into a 429.
        const ip = `ip:${req.ip}`;
        const presented = req.headers.authorization !== undefined;
        const anonymous = presented
          ? applyLimit(await limiter.hit(ip), config.RATE_LIMIT_ANONYMOUS)
          : { ...applyLimit(await limiter.peek(ip), config.RATE_LIMIT_ANONYMOUS), exceeded: false };
        setRateLimitHeaders(res, anonymous);
        if (anonymous.exceeded) return refuse(req, res, 429, RATE_LIMITED);
        return refuse(req, res, 401, "Invalid API key");
      }
      knownKeys.set(keyHash!, true);
      const keyCount = earlyCount ?? (await limiter.hit(`key:${keyHash}`));
      const tier = key.rate_limit_tier;
      const result = applyLimit(keyCount, tierLimit(tier));
      setRateLimitHeaders(res, result);
      if (result.exceeded) return refuse(req, res, 429, RATE_LIMITED);

      countCall(key.team_id, key.id);
      touchLastUsed(key.id, now);
      res.locals.context = {
        viewer: { keyId: key.id, keyPrefix: keyDisplayPrefix(token!), teamId: key.team_id, permissions: key.permissions, tier },
        rateLimit: { tier, limit: result.limit, remaining: result.remaining, resetsAt: result.resetsAt },
        requestId: req.id === undefined ? undefined : String(req.id),
        rateLimiter: limiter,
      };
      next();
    } catch (err) {
      next(err);
    }
  };
}
