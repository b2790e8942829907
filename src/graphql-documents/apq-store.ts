// Where automatic persisted queries are kept (docs/api.md "Automatic persisted queries"): the documents a team's
// clients registered by sending a query with its SHA-256, by team and hash. Shared by every process in Redis when
// REDIS_URL is set, else in this process (an LRU). Each team keeps at most APQ_PER_TEAM documents, the ones used
// last; a document longer than APQ_MAX_TEXT is run but not kept. Nothing here is a source of truth: a miss only
// makes the client send its query once more (PersistedQueryNotFound), so a store that cannot be reached misses.
import { LRUCache } from "lru-cache";
import { config } from "../config";
import { logger } from "../logger";
import { firstConnection, madeOnFirstUse, redisClient } from "../redis";

/** Documents a team keeps (README "Limits"): the least recently used goes first. */
export const APQ_PER_TEAM = 1_000;
/** A document longer than this (characters) runs but is not kept. */
export const APQ_MAX_TEXT = 64 * 1024;
/** Teams whose documents this process keeps without Redis (the least recently used team's go first). */
const MEMORY_TEAMS = 200;
/** Text a team keeps in this process without Redis (characters). */
const MEMORY_TEXT_PER_TEAM = 2 * 1024 * 1024;
/** How long a command waits for the Redis connection when the store was just made (ms). */
const CONNECT_WAIT_MS = 1_000;
/** A team's documents in Redis expire this long after the team last registered one. */
const REDIS_TTL_SECONDS = 30 * 24 * 3600;

export interface ApqStore {
  get(teamId: string, hash: string): Promise<string | undefined>;
  set(teamId: string, hash: string, text: string): Promise<void>;
  close(): Promise<void>;
}

function memoryStore(): ApqStore {
  const teams = new LRUCache<string, LRUCache<string, string>>({ max: MEMORY_TEAMS });
  return {
    get: async (teamId, hash) => teams.get(teamId)?.get(hash),
    set: async (teamId, hash, text) => {
      let team = teams.get(teamId);
      if (!team) teams.set(teamId, (team = new LRUCache<string, string>({ max: APQ_PER_TEAM, maxSize: MEMORY_TEXT_PER_TEAM, sizeCalculation: (t) => Math.max(1, t.length) })));
      team.set(hash, text);
    },
    close: async () => teams.clear(),
  };
}

// A team's documents: a hash (hash → text) and a sorted set (hash → the number of its last use, from the team's
// counter: uses within one millisecond stay in order, which a clock would tie), in one slot (the team id as hash tag).
// Adds the document, drops the least recently used past the bound, and renews the keys' expiry.
const SET = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[1])
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[3])
if over > 0 then
  local old = redis.call('ZRANGE', KEYS[2], 0, over - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, over - 1)
  redis.call('HDEL', KEYS[1], unpack(old))
end
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('EXPIRE', KEYS[3], ARGV[4])
return 0`;
/** A use: the document's place among the last used, if it is kept. */
const TOUCH = `
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then redis.call('ZADD', KEYS[2], 'XX', redis.call('INCR', KEYS[3]), ARGV[1]) end
return 0`;

function redisStore(url: string, prefix: string): ApqStore {
  const client = redisClient(url, { enableAutoPipelining: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  client.on("error", (err) => logger.warn({ err: err.message }, "redis error; automatic persisted queries miss meanwhile"));
  const texts = (teamId: string) => `${prefix}:apq:{${teamId}}:texts`;
  const uses = (teamId: string) => `${prefix}:apq:{${teamId}}:uses`;
  const count = (teamId: string) => `${prefix}:apq:{${teamId}}:count`;
  // Commands are not queued while the client connects (a Redis that cannot be reached must miss, not hold requests):
  // the commands sent while the new client makes its first connection wait for it, at most CONNECT_WAIT_MS, so a
  // team's first registration after a start is kept. Later (Redis gone or reconnecting) nothing waits.
  const connecting = firstConnection(client, CONNECT_WAIT_MS);
  const connected = (): Promise<void> => connecting() ?? Promise.resolve();
  return {
    get: async (teamId, hash) => {
      try {
        await connected();
        const text = await client.hget(texts(teamId), hash);
        if (text === null) return undefined;
        void client.eval(TOUCH, 3, texts(teamId), uses(teamId), count(teamId), hash).catch(() => undefined);
        return text;
      } catch (err) {
        logger.warn({ err: (err as Error).message }, "automatic persisted queries unavailable");
        return undefined;
      }
    },
    set: async (teamId, hash, text) => {
      await connected();
      await client.eval(SET, 3, texts(teamId), uses(teamId), count(teamId), hash, text, APQ_PER_TEAM, REDIS_TTL_SECONDS).catch((err: Error) => {
        logger.warn({ err: err.message }, "could not keep an automatic persisted query");
      });
    },
    close: async () => void (await client.quit().catch(() => client.disconnect())),
  };
}

const shared = madeOnFirstUse<ApqStore>(() => (config.REDIS_URL ? redisStore(config.REDIS_URL, config.REDIS_KEY_PREFIX) : memoryStore()));

/** The store (made on first use). */
export const apqStore = shared.get;

/** Closes the store's Redis connection (at shutdown, and between test files). */
export const closeApqStore = shared.close;
