// Fixed one-hour windows aligned to the UTC clock hour, counted by rate-limiter-flexible: in process memory by
// default, in Redis when REDIS_URL is set so every process shares one budget. The library counts points per
// window; the limit (which depends on the key's tier) is applied here, so a key's lookup and its count can run
// at the same time. The in-process store is an LRU of fixed size: counters of clients that have been quiet longest
// make way first, so no number of distinct callers can grow the process without bound.
//
// With Redis, a busy key's points are taken in blocks (leases): a process that used up its last block within a
// second takes the next one twice as large, or as large as the requests waiting for it (up to 1 % of the key's
// limit, at most 64 points), and answers the requests of a block without a round trip. Each point has one place in
// the shared count, and a request is let through only when its point's place is within the limit, so the processes
// together never let more than the limit through; what a block costs is that points a process took but did not use are gone for the others (at most 1 %
// of the limit the key had when the block was taken, per process; none for keys under 200 requests an hour, whose
// blocks are always one point). One point is counted without a block, in parallel with the others.
// Counts and X-RateLimit-Remaining stay exact for the requests of one process. A request costing several points
// (hitWithin: a GraphQL request with several root mutation fields, or a read's price in points) takes all of them or
// none: from the block held when it has them, else counted in Redis and given back when they went past the limit.
// Read cost's points budget is counted so too, and a busy key's points are taken in blocks as well (twice the last
// block, at least twice the request's price, within 1 % of the budget and 1,024 points): most priced requests then
// make no round trip to Redis for their points.
import { LRUCache } from "lru-cache";
import type { RateLimiterRedis } from "rate-limiter-flexible";
import { logger } from "../logger";
import { firstConnection, rateLimiterFlexible, redisClient } from "../redis";

const HOUR = 3600;
const REDIS_CONNECT_WAIT_MS = 3000;
/** In-process counters kept at most (one per key or client address and hour; ~200 bytes each). */
export const MEMORY_COUNTERS = 100_000;

export interface WindowCount {
  /** Requests counted for the key in the current window, this one included. */
  count: number;
  /** Unix seconds at which the window ends. */
  resetsAt: number;
}

export interface RateLimitResult {
  limit: number;
  remaining: number;
  resetsAt: number;
  exceeded: boolean;
}

export interface RateLimiter {
  /**
   * Counts one request for `key` in the current clock hour. `limit`, the key's budget when the caller knows it,
   * lets a busy key's points be taken from the shared store in blocks (see above); without it each point is.
   */
  hit(key: string, now?: number, limit?: number): Promise<WindowCount>;
  /**
   * Counts one request for `key` when that takes no wait: from the block of points this process holds for it in the
   * current hour (or in process memory without Redis). Undefined when `hit` must count it.
   */
  hitHeld(key: string, now?: number): WindowCount | undefined;
  /**
   * Counts `points` more for `key` in the current clock hour only when the count stays within `limit` with them: all
   * of them or none (the extra points of a request that costs more than one). `count` is with them when `taken`,
   * without them otherwise. `budget`, the key's real budget (when `limit` is only a ceiling, as in read cost's
   * measure mode), lets a busy key's points be taken from the shared store in blocks, as `hit`'s limit does.
   */
  hitWithin(key: string, points: number, limit: number, now?: number, budget?: number): Promise<WindowCount & { taken: boolean }>;
  /** The count of `key` in the current clock hour, without counting (points this process took but has not used left out). */
  peek(key: string, now?: number): Promise<WindowCount>;
  /** Resolves once the shared store is connected (or given up on for now); at once for the memory store. */
  ready(): Promise<void>;
  /** Readiness of the shared store: Redis answers a PING, or there is none. */
  check(): Promise<"ok" | "unreachable" | "not configured">;
  close(): Promise<void>;
}

export const applyLimit = ({ count, resetsAt }: WindowCount, limit: number): RateLimitResult => ({
  limit,
  remaining: Math.max(0, limit - count),
  resetsAt,
  exceeded: count > limit,
});

/** Fixed-window counts in this process: `key:window` → count, expiring with the window, at most `max` of them. */
function memoryCounter(max: number) {
  const counts = new LRUCache<string, { count: number }>({ max, ttlAutopurge: false });
  return {
    hit(windowKey: string, secondsLeft: number, points = 1): number {
      const entry = counts.get(windowKey);
      if (entry) return (entry.count += points);
      counts.set(windowKey, { count: points }, { ttl: secondsLeft * 1000 });
      return points;
    },
    peek: (windowKey: string): number => counts.get(windowKey)?.count ?? 0,
  };
}

/** A block of one window's points taken from the shared store by this process. */
interface Lease {
  /** The clock hour of the block (hours since the epoch). */
  window: number;
  /** The shared count once the block was taken: its points are the places end - size + 1 … end. */
  end: number;
  /** Points of the block not used yet (the last ones). */
  left: number;
  size: number;
  takenAt: number;
  /** The highest shared count this process saw in the window. */
  lastCount: number;
  /** The block being taken now (resolves false when Redis could not be reached), and how many requests wait for it. */
  taking: Promise<boolean> | null;
  waiting: number;
}

const MAX_LEASE = 64;
/** A block lasting under a second is followed by a larger one; the first one, or after a pause, is one point. */
const LEASE_GROWS_WITHIN_MS = 1000;

function nextLeaseSize(lease: Lease, window: number, limit: number | undefined, now: number): number {
  const cap = limit === undefined ? 1 : Math.min(MAX_LEASE, Math.max(1, Math.floor(limit / 100)));
  const busy = lease.window === window && now - lease.takenAt < LEASE_GROWS_WITHIN_MS;
  // Past the limit (as this process last saw the count) every request is refused anyway: one point at a time, so
  // the count a refused client sees stays exact.
  if (!busy || cap === 1 || (limit !== undefined && lease.lastCount >= limit)) return 1;
  return Math.min(cap, Math.max(lease.size * 2, lease.waiting + 1));
}

/** A block of points is at most this share of the key's budget, and at most MAX_POINTS_BLOCK points. */
const POINTS_BLOCK_SHARE = 100;
const MAX_POINTS_BLOCK = 1024;

/**
 * The block to take for a request of `points` (hitWithin with a budget: a key's read-cost points), or 0 to count them
 * on their own: a block only for a key whose last points were taken less than a second ago, twice the last one (and
 * at least twice the request), within 1 % of the budget; none when the block would go past `limit` as this process
 * last saw the count (near the end of a budget every point is counted on its own, so refusals stay exact).
 */
function pointsBlockSize(lease: Lease, window: number, points: number, budget: number, limit: number, now: number): number {
  const cap = Math.min(MAX_POINTS_BLOCK, Math.floor(budget / POINTS_BLOCK_SHARE));
  const busy = lease.window === window && now - lease.takenAt < LEASE_GROWS_WITHIN_MS;
  const size = Math.min(cap, Math.max(lease.size * 2, points * 2));
  if (!busy || size <= points || (lease.window === window ? lease.lastCount : 0) + size > limit) return 0;
  return size;
}

/**
 * Before a request of `points` with a budget (hitWithin): waits for the block being taken, or takes one when the key
 * is busy (pointsBlockSize). The points of the block held before that the request carries over — its first ones,
 * so the counts this process sees stay consecutive — or null when Redis could not be reached.
 */
async function pointsBlock(
  lease: Lease,
  at: ClockHour,
  points: number,
  budget: number,
  limit: number,
  now: number,
  take: (lease: Lease, at: ClockHour, size: number, now: number) => Promise<boolean>,
): Promise<number | null> {
  let carried = 0;
  for (;;) {
    if (lease.window === at.window && lease.left + carried >= points) return carried;
    if (lease.taking) {
      if (!(await lease.taking)) return null;
      continue;
    }
    const size = pointsBlockSize(lease, at.window, points, budget, limit, now);
    if (size === 0) return carried;
    if (lease.window === at.window) [carried, lease.left] = [carried + lease.left, 0];
    lease.taking = take(lease, at, size, now).finally(() => (lease.taking = null));
  }
}

const windowOf = (now: number): number => Math.floor(now / 1000 / HOUR);
/** When clock hour `window` ends, in Unix seconds. */
const windowEnd = (window: number): number => (window + 1) * HOUR;

type ClockHour = ReturnType<typeof clockHour>;
/** The clock hour of `now`: its counter name for `key`, when it ends (Unix seconds), and the seconds left. */
function clockHour(key: string, now: number) {
  const window = windowOf(now);
  const resetsAt = windowEnd(window);
  return { window, windowKey: `${key}:${window}`, resetsAt, secondsLeft: Math.max(1, resetsAt - Math.floor(now / 1000)) };
}

/** The Redis connection: its client, the wait for it at start, its readiness and its end. */
function redisConnection(url: string) {
  // Auto-pipelining sends the counts of requests read in the same turn of the event loop in one write: a round
  // trip to Redis costs more than the count itself (BENCHMARKS.md, scenario 4).
  const client = redisClient(url, {
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
  });
  client.on("error", (err) => logger.warn({ err: err.message }, "redis error; rate limits fall back to this process"));
  // Without an offline queue a command sent before the connection is up fails over to the in-process insurance
  // limiter, which would split a budget between processes; so the first hits wait (briefly) for the connection.
  const connecting = firstConnection(client, REDIS_CONNECT_WAIT_MS);
  return {
    client,
    /** Resolves once connected (or given up on for now); null from then on. */
    connecting,
    async check(): Promise<"ok" | "unreachable"> {
      if (client.status !== "ready") return "unreachable";
      return client.ping().then(
        () => "ok" as const,
        () => "unreachable" as const,
      );
    },
    async close(): Promise<void> {
      await client.quit().catch(() => undefined);
    },
  };
}

/** Counts in this process: the store without Redis, and the fallback while Redis cannot be reached. */
function memoryStore(max: number) {
  const here = memoryCounter(max);
  return {
    hit: (at: ClockHour): WindowCount => ({ count: here.hit(at.windowKey, at.secondsLeft), resetsAt: at.resetsAt }),
    /** `points` counted when the count stays within `limit` with them (see RateLimiter.hitWithin). */
    within(at: ClockHour, points: number, limit: number): WindowCount & { taken: boolean } {
      const count = here.peek(at.windowKey);
      const taken = count + points <= limit;
      return { count: taken ? here.hit(at.windowKey, at.secondsLeft, points) : count, resetsAt: at.resetsAt, taken };
    },
    peek: (at: ClockHour): WindowCount => ({ count: here.peek(at.windowKey), resetsAt: at.resetsAt }),
  };
}
type MemoryStore = ReturnType<typeof memoryStore>;

/**
 * Counts in Redis, a busy key's points taken in blocks (see the top of this file); `here` counts a point when Redis
 * cannot be reached (rather than refuse service).
 */
function sharedStore(limiter: RateLimiterRedis, here: MemoryStore) {
  const leases = new LRUCache<string, Lease>({ max: MEMORY_COUNTERS });

  /** Counts `points` of `windowKey` in Redis: the shared count after them, or null when Redis could not be reached. */
  async function consume(windowKey: string, points: number, secondsLeft: number): Promise<number | null> {
    try {
      return (await limiter.consume(windowKey, points, { customDuration: secondsLeft })).consumedPoints;
    } catch (err) {
      return err instanceof rateLimiterFlexible().RateLimiterRes ? err.consumedPoints : null;
    }
  }

  /** Takes a block of `size` points of the window for `lease`'s key (false: Redis could not be reached). */
  async function take(lease: Lease, at: ClockHour, size: number, now: number): Promise<boolean> {
    const end = await consume(at.windowKey, size, at.secondsLeft);
    if (end === null) return false;
    // A block of a later hour taken meanwhile stays (this one's points are lost, as when a block is not used up).
    if (lease.window <= at.window) Object.assign(lease, { window: at.window, end, left: size, size, takenAt: now, lastCount: end });
    return true;
  }

  /** One point counted in Redis on its own (in this process when Redis cannot be reached). */
  async function onePoint(at: ClockHour): Promise<WindowCount> {
    const count = await consume(at.windowKey, 1, at.secondsLeft);
    return count === null ? here.hit(at) : { count, resetsAt: at.resetsAt };
  }

  /** A point of `lease`'s block, when it is of `window` and has one left. */
  function fromBlock(lease: Lease | undefined, window: number): WindowCount | undefined {
    if (!lease || lease.window !== window || lease.left === 0) return undefined;
    lease.left--;
    return { count: lease.end - lease.left, resetsAt: windowEnd(window) };
  }

  return {
    /** One point of `key`: from the block held, else after taking the next block (or one point on its own). */
    async hit(key: string, at: ClockHour, now: number, limit: number | undefined): Promise<WindowCount> {
      const { window } = at;
      const lease = leases.get(key) ?? { window, end: 0, left: 0, size: 0, takenAt: 0, lastCount: 0, taking: null, waiting: 0 };
      leases.set(key, lease);
      for (;;) {
        const held = fromBlock(lease, window);
        if (held) return held;
        // The hour turned while this request waited: the later hour's block is not replaced.
        if (lease.window > window) return onePoint(at);
        if (lease.taking) {
          lease.waiting++;
          const answered = await lease.taking;
          lease.waiting--;
          if (!answered) return here.hit(at);
          continue;
        }
        const size = nextLeaseSize(lease, window, limit, now);
        if (size === 1) {
          // No block: nothing to wait for (requests arriving together are counted in parallel, in one write).
          Object.assign(lease, { window, left: 0, size: 1, takenAt: now, lastCount: lease.window === window ? lease.lastCount : 0 });
          const counted = await onePoint(at);
          if (lease.window === window) lease.lastCount = Math.max(lease.lastCount, counted.count);
          return counted;
        }
        lease.taking = take(lease, at, size, now).finally(() => (lease.taking = null));
      }
    },

    /**
     * `points` of the window in Redis, all or none: from the block this process holds as far as it has them (its last
     * points, so this process's count stays exact), the rest counted in Redis and given back when they went past the
     * limit (the shared count then overstates for a moment, which only ever refuses, never lets more through). Null
     * when Redis could not be reached (the block is as it was). With `budget` (the key's real budget, when `limit` is
     * only a ceiling) a busy key takes blocks of points too (pointsBlockSize).
     */
    async within(key: string, at: ClockHour, points: number, limit: number, now: number, budget?: number): Promise<(WindowCount & { taken: boolean }) | null> {
      let lease = leases.get(key);
      let carried = 0;
      if (budget !== undefined) {
        if (!lease) leases.set(key, (lease = { window: at.window, end: 0, left: 0, size: 0, takenAt: 0, lastCount: 0, taking: null, waiting: 0 }));
        const ready = await pointsBlock(lease, at, points, budget, limit, now, take);
        if (ready === null) return null;
        carried = ready;
      }
      const held = (lease && lease.window === at.window ? lease.left : 0) + carried;
      if (held >= points) {
        const fromBlock = points - carried;
        const taken = lease!.end - lease!.left + fromBlock <= limit;
        if (taken) lease!.left -= fromBlock;
        return { count: lease!.end - lease!.left, resetsAt: at.resetsAt, taken };
      }
      const blockEnd = held ? lease!.end : 0;
      if (held) lease!.left = 0;
      const end = await consume(at.windowKey, points - held, at.secondsLeft);
      // Without a block, the time and count are what tell the next request whether the key is busy.
      if (lease && budget !== undefined && held === 0 && end !== null && lease.window <= at.window && !lease.taking) {
        Object.assign(lease, { window: at.window, end, left: 0, size: points, takenAt: now, lastCount: Math.max(end, lease.window === at.window ? lease.lastCount : 0) });
      }
      if (end !== null && Math.max(end, blockEnd) <= limit) return { count: end, resetsAt: at.resetsAt, taken: true };
      if (end !== null) await limiter.reward(at.windowKey, points - held, { customDuration: at.secondsLeft }).catch(() => undefined);
      // The block's points go back to it unless a new block replaced it meanwhile.
      if (held && lease!.end === blockEnd && lease!.window === at.window) lease!.left = held;
      return end === null ? null : { count: end - points, resetsAt: at.resetsAt, taken: false };
    },

    /** A point of the block held for `key` in `window`, if there is one. */
    held: (key: string, window: number): WindowCount | undefined => fromBlock(leases.get(key), window),

    /** The shared count less the points of the block this process holds and has not used. */
    async peek(key: string, at: ClockHour): Promise<WindowCount> {
      const res = await limiter.get(at.windowKey).catch(() => null);
      const lease = leases.get(key);
      const unused = lease && lease.window === at.window ? lease.left : 0;
      return res ? { count: res.consumedPoints - unused, resetsAt: at.resetsAt } : here.peek(at);
    },
  };
}

/** The rate limiter: in process memory, or in Redis (shared by every process) when `redisUrl` is given. */
export function createRateLimiter(options: { redisUrl?: string; keyPrefix?: string }): RateLimiter {
  const here = memoryStore(MEMORY_COUNTERS);
  const redis = options.redisUrl ? redisConnection(options.redisUrl) : null;
  const keyPrefix = options.keyPrefix ?? "prs:rl";
  const limiter = redis && new (rateLimiterFlexible().RateLimiterRedis)({ points: Number.MAX_SAFE_INTEGER, duration: HOUR, keyPrefix, storeClient: redis.client });
  const shared = limiter && sharedStore(limiter, here);
  return {
    async hit(key, now = Date.now(), limit) {
      const connecting = redis?.connecting();
      if (connecting) await connecting;
      const at = clockHour(key, now);
      return shared ? shared.hit(key, at, now, limit) : here.hit(at);
    },
    async hitWithin(key, points, limit, now = Date.now(), budget) {
      const connecting = redis?.connecting();
      if (connecting) await connecting;
      const at = clockHour(key, now);
      return (shared && (await shared.within(key, at, points, limit, now, budget))) ?? here.within(at, points, limit);
    },
    hitHeld(key, now = Date.now()) {
      if (redis?.connecting()) return undefined;
      return shared ? shared.held(key, windowOf(now)) : here.hit(clockHour(key, now));
    },
    async peek(key, now = Date.now()) {
      const connecting = redis?.connecting();
      if (connecting) await connecting;
      const at = clockHour(key, now);
      return shared ? shared.peek(key, at) : here.peek(at);
    },
    ready: () => redis?.connecting() ?? Promise.resolve(),
    check: async () => (redis ? redis.check() : "not configured"),
    close: async () => redis?.close(),
  };
}
