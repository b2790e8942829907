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

/**
 * The wait for a new client's first connection, at most `waitMs`: the returned function gives the promise while that
 * first connection is being made, null from then on. For clients without an offline queue (a Redis that cannot be
 * reached must fail at once, not hold requests), whose first commands would otherwise fail while it connects.
 */
export function firstConnection(client: Redis, waitMs: number): () => Promise<void> | null {
  let connecting: Promise<void> | null = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, waitMs).unref();
    client.once("ready", () => {
      clearTimeout(timer);
      resolve();
    });
  }).then(() => void (connecting = null));
  return () => connecting;
}

/**
 * A service of this process that holds connections (on Redis, or its in-memory stand-in): `get` makes it on first use;
 * `close` closes it (at shutdown, and between test files), and a later `get` makes a new one.
 */
export function madeOnFirstUse<T extends { close(): Promise<void> }>(make: () => T): { get: () => T; close: () => Promise<void> } {
  let made: T | undefined;
  return {
    get: () => (made ??= make()),
    close: async () => {
      const open = made;
      made = undefined;
      await open?.close();
    },
  };
}

/** rate-limiter-flexible (loaded on first use, see above). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
export const rateLimiterFlexible = (): typeof RateLimiterFlexible => require("rate-limiter-flexible") as typeof RateLimiterFlexible;
