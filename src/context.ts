// The per-request context shared by REST and GraphQL. The auth middleware fills `viewer` and `rateLimit`.
import type { Permissions } from "./auth/permissions";
import type { RateLimiter } from "./auth/rate-limit";

export interface Viewer {
  keyId: string;
  /** The key's display prefix (prs_sk_live_ + 4 characters): what logs may say about it. */
  keyPrefix: string;
  teamId: string;
  permissions: Permissions;
  tier: string;
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
  /** The request's X-Request-Id, for log lines written below the HTTP layer. */
  requestId?: string;
  /** The rate limiter's counts, to answer other keys' remaining hourly quota (absent: not known). */
  rateLimiter?: Pick<RateLimiter, "peek">;
}
