// Redis clients (ioredis) and the rate limiter's Redis store (rate-limiter-flexible), loaded when REDIS_URL is set:
// ~80 modules that a process on one machine, and every test file on the embedded database, need not load.
import type { Redis, RedisOptions } from "ioredis";
import type * as RateLimiterFlexible from "rate-limiter-flexible";

/** A new Redis client (ioredis loaded on first use, see above). */
export function redisClient(url: string, options: RedisOptions): Redis {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
  const { Redis: Client } = require("ioredis") as typeof import("ioredis");
  return new Client(url, options);
}

/** rate-limiter-flexible (loaded on first use, see above). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
export const rateLimiterFlexible = (): typeof RateLimiterFlexible => require("rate-limiter-flexible") as typeof RateLimiterFlexible;
