// The per-request context shared by REST and GraphQL. The auth middleware fills `viewer` and `rateLimit`.
import type { KeyRow } from "./auth/key-lookup";
import type { ReadTarget } from "./db/replicas";
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
  /** The client's address as Express gives it (TRUST_PROXY decides whether X-Forwarded-For counts): for the audit log. */
  clientAddress?: string;
  /** The rate limiter's counts, to answer other keys' remaining hourly quota (absent: not known). */
  rateLimiter?: Pick<RateLimiter, "peek" | "hitWithin">;
  /** The rate limiter's name for the key's hourly budget: a request costing more than one point takes the rest there. */
  rateKey?: string;
  /**
   * Asked for by HTTP caching on a REST read the one-statement path answers: that statement also reads the team's data
   * version, in the snapshot of its data, and leaves it here (src/rest/http-cache.ts).
   */
  dataVersion?: { value?: string };
  /** Present when the key was admitted without being read for this request (see KeyCheck). */
  keyCheck?: KeyCheck;
  /**
   * Where the reads of the query being executed go (src/db/replicas.ts): chosen once per request by the executor when
   * read replicas are configured; absent otherwise (the primary).
   */
  read?: ReadTarget;
}

/** A refusal of the auth step: 401 for a key that is not valid, 429 past a budget. */
export interface Refusal {
  status: 401 | 429;
  message: string;
}

/**
 * What the executor is told to confirm for a request the auth step admitted with the key row this process read last,
 * without reading it again (ARCHITECTURE.md "The key check"): that the stored row is still that version and valid.
 * The executor answers in `held` before anything touches data (in the statement that answers the request, or by
 * reading the key); counting the call, and deciding what a changed key means for the request, are the auth step's.
 */
export interface KeyCheck {
  readonly keyHash: string;
  /** The row the request's viewer and limit were made of: its `version` is the one to find. */
  readonly row: KeyRow;
  /** The executor's answer: true, the row held; false, it changed (nothing was answered); undefined, not asked yet. */
  held?: boolean;
}
