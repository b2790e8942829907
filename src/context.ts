// The per-request context shared by REST and GraphQL. The auth middleware fills `viewer` and `rateLimit`.
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
   * Columns other layers add to the statement that answers the request, each read in the snapshot of its data: the
   * key check (src/auth/key-check.ts) and the team's data version for an ETag (src/rest/http-cache.ts). See Rider.
   */
  riders?: Rider[];
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
 * A question another layer asks of the statement that answers a request (ARCHITECTURE.md "Riders of the statement"):
 * one more column of that statement, so it is answered in the same round trip and snapshot as the data. The read
 * engine knows only this shape; what a column means is its owner's. A request the statement does not answer (the
 * resolvers do, or a rider refused the statement's answer) settles its riders instead, before anything reads data.
 */
export interface Rider {
  /** Names the rider in the engine's cache of statements (a statement's text differs by its riders). */
  readonly name: string;
  /** Its column: an SQL expression whose parameters are numbered from `$first`, always as many as `params` holds. */
  column(first: number): string;
  readonly params: readonly unknown[];
  /** Whether the statement's answer may be used, given the column's value (default: yes). */
  holds?(value: unknown): boolean;
  /** Takes the column's value once the statement's answer is used: the rider is then settled. */
  read(value: unknown): void;
  /** Settles the rider without the statement (idempotent): a refusal is the request's answer instead of any data. */
  settle(): Promise<Refusal | undefined>;
  /** Settled: by `read` or `settle`; its column is no longer asked for. */
  readonly settled: boolean;
  /** Its answer is the primary's only (a key changes without moving the team's version): settled there before a read goes to a replica. */
  readonly primaryOnly?: boolean;
}

/** The riders the statement answering the request is to carry: those not settled yet. */
export const pendingRiders = (context: Context | undefined): Rider[] => context?.riders?.filter((rider) => !rider.settled) ?? [];

/** Settles the request's riders (`which` of them) that the statement did not answer; the first refusal, if one refuses. */
export async function settleRiders(context: Context | undefined, which: (rider: Rider) => boolean = () => true): Promise<Refusal | undefined> {
  for (const rider of context?.riders?.filter(which) ?? []) {
    const refusal = await rider.settle();
    if (refusal) return refusal;
  }
  return undefined;
}
