// The per-request context shared by REST and GraphQL. The auth middleware fills `viewer` and `rateLimit`.
import type { KeyRow } from "./auth/key-lookup";
import type { Permissions } from "./auth/permissions";
import type { RateLimiter } from "./auth/rate-limit";

export interface Viewer {
  keyId: string;
  /** The key's display prefix (prs_sk_live_ + 4 characters): what logs may say about it. */
  keyPrefix: string;
  teamId: string;
  permissions: Permissions;
  tier: string;
  /** The key runs registered GraphQL documents only (src/graphql-documents). */
  trustedDocumentsOnly?: boolean;
}

export interface RateLimitState {
  tier: string;
  limit: number;
  remaining: number;
  /** Unix seconds at which the current window ends. */
  resetsAt: number;
}

export interface Context {
  viewer: Viewer | null;
  rateLimit: RateLimitState | null;
  /** The request's X-Request-Id, for log lines written below the HTTP layer (and the audit log). */
  requestId?: string;
  /** The rate limiter's counts, to answer other keys' remaining hourly quota (absent: not known). */
  rateLimiter?: Pick<RateLimiter, "peek" | "hitWithin">;
  /** The client's address as Express gives it (TRUST_PROXY decides whether X-Forwarded-For counts): for the audit log. */
  clientAddress?: string;
  /** The rate limiter's name for the key's hourly budget: a request costing more than one point takes the rest there. */
  rateKey?: string;
  /** Present while the key is still to be confirmed (see KeyCheck). */
  keyCheck?: KeyCheck;
}

/** A refusal of the auth step: 401 for a key that is not valid, 429 past a budget. */
export interface Refusal {
  status: 401 | 429;
  message: string;
}

/**
 * A request answered with the key row this process read last, not read again for it (auth/middleware.ts): the
 * statement answering it compares that row with the stored one (src/schema/sql-json/run.ts), and anything else
 * confirms it by reading it before touching data (src/schema/engine.ts). A request whose key changed is answered
 * again from `recheck` (src/rest/route.ts).
 */
export interface KeyCheck {
  keyHash: string;
  row: KeyRow;
  /** Not confirmed yet. */
  readonly pending: boolean;
  /** The row was found unchanged (by a statement that compared it): the call is counted. */
  confirmed(): void;
  /** Reads the key: true when unchanged (then confirmed), false when the request must be answered again. */
  confirm(): Promise<boolean>;
  /** Reads the key and answers for it as the auth step does: the request's context now, or its refusal. */
  recheck(): Promise<Context | Refusal>;
}

/** Thrown where a request's key turned out changed since the row its context was made of (see KeyCheck). */
export class KeyChanged extends Error {
  constructor() {
    super("the API key changed since this process last read it");
  }
}
