// Fixed one-hour windows aligned to the UTC clock hour, counted by rate-limiter-flexible: in process memory by
// default, in Redis when REDIS_URL is set so every process shares one budget. The library counts points per
// window; the limit (which depends on the key's tier) is applied here, so a key's lookup and its count can run
// at the same time.
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { logger } from "../logger";

const HOUR = 3600;
const REDIS_CONNECT_WAIT_MS = 3000;

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
  /** Resolves once the shared store is connected (or given up on for now); at once for the memory store. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export const applyLimit = ({ count, resetsAt }: WindowCount, limit: number): RateLimitResult => ({
  limit,
  remaining: Math.max(0, limit - count),
  resetsAt,
  exceeded: count > limit,
});

export function createRateLimiter(options: { redisUrl?: string; keyPrefix?: string }): RateLimiter {
  const keyPrefix = options.keyPrefix ?? "prs:rl";
  const common = { points: Number.MAX_SAFE_INTEGER, duration: HOUR, keyPrefix };
  let redis: Redis | null = null;
  let limiter: RateLimiterAbstract;
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
    // If Redis is unreachable, count in this process rather than refuse service.
    limiter = new RateLimiterRedis({ ...common, storeClient: client, insuranceLimiter: new RateLimiterMemory(common) });
  } else {
    limiter = new RateLimiterMemory(common);
  }

  return {
    async hit(key, now = Date.now()) {
      if (connecting) await connecting;
      const window = Math.floor(now / 1000 / HOUR);
      const resetsAt = (window + 1) * HOUR;
      const secondsLeft = Math.max(1, resetsAt - Math.floor(now / 1000));
      let res: RateLimiterRes;
      try {
        res = await limiter.consume(`${key}:${window}`, 1, { customDuration: secondsLeft });
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        res = err;
      }
      return { count: res.consumedPoints, resetsAt };
    },
    ready: () => connecting ?? Promise.resolve(),
    async close() {
      if (redis) await redis.quit().catch(() => undefined);
    },
  };
}
