// Fixed one-hour windows aligned to the UTC clock hour, counted by rate-limiter-flexible: in process memory by
// default, in Redis when REDIS_URL is set so every process shares one budget. The library counts points per
// window; the limit (which depends on the key's tier) is applied here, so a key's lookup and its count can run
// at the same time. The in-process store is an LRU of fixed size: counters of clients that have been quiet longest
// make way first, so no number of distinct callers can grow the process without bound.
import { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { logger } from "../logger";

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
  /** Counts one request for `key` in the current clock hour. */
  hit(key: string, now?: number): Promise<WindowCount>;
  /** The count of `key` in the current clock hour, without counting. */
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
    hit(windowKey: string, secondsLeft: number): number {
      const entry = counts.get(windowKey);
      if (entry) return ++entry.count;
      counts.set(windowKey, { count: 1 }, { ttl: secondsLeft * 1000 });
      return 1;
    },
    peek: (windowKey: string): number => counts.get(windowKey)?.count ?? 0,
  };
}

/** The clock hour of `now`: its counter name for `key`, when it ends (Unix seconds), and the seconds left. */
function clockHour(key: string, now: number) {
  const window = Math.floor(now / 1000 / HOUR);
  const resetsAt = (window + 1) * HOUR;
  return { windowKey: `${key}:${window}`, resetsAt, secondsLeft: Math.max(1, resetsAt - Math.floor(now / 1000)) };
}

export function createRateLimiter(options: { redisUrl?: string; keyPrefix?: string }): RateLimiter {
  const keyPrefix = options.keyPrefix ?? "prs:rl";
  const common = { points: Number.MAX_SAFE_INTEGER, duration: HOUR, keyPrefix };
  let redis: Redis | null = null;
  let limiter: RateLimiterRedis | null = null;
  // Counts in this process: the store without Redis, and the fallback while Redis cannot be reached.
  const here = memoryCounter(MEMORY_COUNTERS);
  // Without an offline queue a command sent before the connection is up fails over to the in-process insurance
  // limiter, which would split a budget between processes; so the first hits wait (briefly) for the connection.
  let connecting: Promise<void> | null = null;
  if (options.redisUrl) {
    // Auto-pipelining sends the counts of requests read in the same turn of the event loop in one write: a round
    // trip to Redis costs more than the count itself (BENCHMARKS.md, scenario 4).
    const client = new Redis(options.redisUrl, {
      enableAutoPipelining: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      lazyConnect: false,
    });
    redis = client;
    client.on("error", (err) => logger.warn({ err: err.message }, "redis error; rate limits fall back to this process"));
    connecting = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, REDIS_CONNECT_WAIT_MS);
      client.once("ready", () => {
        clearTimeout(timer);
        resolve();
      });
    }).then(() => {
      connecting = null;
    });
    limiter = new RateLimiterRedis({ ...common, storeClient: client });
  }

  return {
    async hit(key, now = Date.now()) {
      if (connecting) await connecting;
      const { windowKey, resetsAt, secondsLeft } = clockHour(key, now);
      if (!limiter) return { count: here.hit(windowKey, secondsLeft), resetsAt };
      try {
        const res = await limiter.consume(windowKey, 1, { customDuration: secondsLeft });
        return { count: res.consumedPoints, resetsAt };
      } catch (err) {
        if (err instanceof RateLimiterRes) return { count: err.consumedPoints, resetsAt };
        // Redis is unreachable: count in this process rather than refuse service.
        return { count: here.hit(windowKey, secondsLeft), resetsAt };
      }
    },
    async peek(key, now = Date.now()) {
      if (connecting) await connecting;
      const { windowKey, resetsAt } = clockHour(key, now);
      if (!limiter) return { count: here.peek(windowKey), resetsAt };
      const res = await limiter.get(windowKey).catch(() => null);
      return { count: res?.consumedPoints ?? here.peek(windowKey), resetsAt };
    },
    ready: () => connecting ?? Promise.resolve(),
    async check() {
      if (!redis) return "not configured";
      if (redis.status !== "ready") return "unreachable";
      return redis.ping().then(
        () => "ok" as const,
        () => "unreachable" as const,
      );
    },
    async close() {
      if (redis) await redis.quit().catch(() => undefined);
    },
  };
}
