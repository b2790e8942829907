// The response cache of GraphQL GET answers (./use-http-cache.ts), shared by every process: Redis when REDIS_URL is
// set, else this process's LRU. Keys are the answers' ETags (src/http/http-cache.ts), so a committed change makes
// older entries unreachable; nothing is deleted, entries expire.
import { LRUCache } from "lru-cache";
import { config } from "../config";
import { logger } from "../logger";
import { redisClient } from "../redis";

export interface CachedAnswer {
  type: string;
  /** The bytes as sent: kept and written back without decoding (a nested page is ~250 kB). */
  body: Buffer;
}

/** A response cache shared by the processes (Redis) or kept in this one. Failures are misses. */
export interface ResponseCache {
  get(key: string): Promise<CachedAnswer | undefined>;
  set(key: string, value: CachedAnswer): Promise<void>;
  close(): Promise<void>;
}

const TTL_SECONDS = 600;
/** Answers larger than this are not kept. */
export const MAX_CACHED_BYTES = 1024 * 1024;

function memoryCache(): ResponseCache {
  // A small body may be a slice of Node's shared 8 kB buffer pool, which it keeps alive: counted as the whole pool.
  const lru = new LRUCache<string, CachedAnswer>({ maxSize: 64 * 1024 * 1024, sizeCalculation: (v, k) => v.body.buffer.byteLength + k.length, ttl: TTL_SECONDS * 1000 });
  return { get: async (key) => lru.get(key), set: async (key, value) => void lru.set(key, value), close: async () => lru.clear() };
}

/**
 * Redis holds an answer as its content type, a newline, and the body's bytes: no JSON around it, whose parse and
 * stringify of the escaped body cost a hit ~1 ms of CPU and a miss more (bench/production.ts cache, BENCHMARKS.md
 * "HTTP caching"). A value without the newline (none is written) reads as a miss.
 */
function redisCache(url: string): ResponseCache {
  const client = redisClient(url, { enableAutoPipelining: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  client.on("error", (err) => logger.warn({ err: err.message }, "redis error; the response cache misses meanwhile"));
  const failed = (err: unknown) => logger.warn({ err: (err as Error).message }, "response cache unavailable");
  return {
    get: (key) =>
      client.getBuffer(key).then(
        (value) => {
          const newline = value ? value.indexOf(10) : -1;
          return newline < 0 ? undefined : { type: value!.subarray(0, newline).toString(), body: value!.subarray(newline + 1) };
        },
        (err) => void failed(err),
      ),
    set: (key, value) => client.set(key, Buffer.concat([Buffer.from(`${value.type}\n`), value.body]), "EX", TTL_SECONDS).then(() => undefined, failed),
    close: async () => void (await client.quit().catch(() => client.disconnect())),
  };
}

let shared: ResponseCache | undefined;
export const responseCache = (): ResponseCache => (shared ??= config.REDIS_URL ? redisCache(config.REDIS_URL) : memoryCache());

/** Closes the response cache's Redis connection (at shutdown). */
export async function closeResponseCache(): Promise<void> {
  const cache = shared;
  shared = undefined;
  await cache?.close();
}
