// Finds an API key by its hash, once per request. On PostgreSQL every request reads the row, so a revocation made
// by any process (or straight in the database) takes effect on the next request everywhere: by a statement of its
// own — the lookups of requests that arrive together are sent as one (a round trip costs more than the lookup) — or,
// for REST's report reads with a key this process has seen, inside the statement that answers the request
// (`keyRowHolds`; auth/middleware.ts). On the embedded database this process is the only writer: rows are cached,
// and the api_keys trigger (migration *_api_key_change_notify) drops an entry as the change commits, before the
// revoking call returns.
import DataLoader from "dataloader";
import { LRUCache } from "lru-cache";
import { database } from "../db";
import type { Database, Statement } from "../db/open";
import type { Permissions } from "./permissions";

export interface KeyRow {
  id: string;
  team_id: string;
  permissions: Permissions;
  rate_limit_tier: string;
  revoked_at: Date | null;
  expires_at: Date | string | null;
  /** The hourly budget the key spends when not its own: a rolled key's successor spends its predecessor's. */
  budget_key_id: string | null;
  /** Runs registered GraphQL documents only. */
  trusted_documents_only: boolean;
  /**
   * The row's version: PostgreSQL's `xmin`, the transaction that wrote it, new with every UPDATE (the optimistic
   * concurrency token of PostgreSQL drivers). The same version, the same viewer, limit and validity. A write that
   * changes none of them (last_used_at) makes a process's next request read the key again, unless it wrote it
   * itself (`touchKey` answers the new version).
   */
  version: string;
}

const KEY_COLUMNS = "id, team_id, permissions, rate_limit_tier, revoked_at, expires_at, budget_key_id, trusted_documents_only, xmin::text AS version";

// Goes to the driver directly: a tenth of a Prisma call's CPU (see BENCHMARKS.md).
const FIND_KEYS: Statement = {
  name: "prs_find_api_keys",
  text: `SELECT key_hash, ${KEY_COLUMNS} FROM api_keys WHERE key_hash = ANY($1::text[])`,
};
const CHANGED_CHANNEL = "prs_api_key_changed"; // payload: a key_hash, or '' for all
const MAX_CACHED = 10_000; // unknown hashes are never cached, so only real keys count towards this

export type FindKey = (keyHash: string) => Promise<KeyRow | undefined>;

/**
 * One statement for the lookups started in the same turn of the event loop (setImmediate: requests read from the
 * network together are batched, as ioredis batches their rate-limit counts). Nothing is kept between batches.
 */
function batchedReads(db: Database): FindKey {
  const loader = new DataLoader<string, KeyRow | undefined>(
    async (hashes) => {
      const rows = await db.query<KeyRow & { key_hash: string }>(FIND_KEYS, [hashes]);
      const byHash = new Map(rows.map(({ key_hash, ...row }) => [key_hash, row]));
      return hashes.map((hash) => byHash.get(hash));
    },
    { cache: false, batchScheduleFn: (run) => setImmediate(run) },
  );
  return (keyHash) => loader.load(keyHash);
}

export function keyLookup(db: Database): FindKey {
  // Misses are batched on the embedded database too: a burst of unknown keys is then a few statements, not one each.
  const read = batchedReads(db);
  if (!db.listenToOwnWrites) return read;

  const cached = new LRUCache<string, KeyRow>({ max: MAX_CACHED });
  let listening = false;
  // Bumped on every change: a read that overlapped a change is used once but not cached.
  let changes = 0;
  db.listenToOwnWrites(CHANGED_CHANNEL, (keyHash) => {
    changes++;
    if (keyHash) cached.delete(keyHash);
    else cached.clear();
  }).then(
    () => (listening = true),
    () => undefined, // no notifications: stay uncached
  );
  return async (keyHash) => {
    const hit = cached.get(keyHash);
    if (hit) return hit;
    const before = changes;
    const row = await read(keyHash);
    if (row && listening && changes === before) cached.set(keyHash, row);
    return row;
  };
}

/**
 * A condition, for a statement that answers a request made with a key row this process read earlier: true when the
 * stored row still says the same (the request's viewer and limit are made of it) and the key is valid now.
 * `$first`… are its parameters, `keyRowParams`' values.
 */
export const keyRowHolds = (first: number): string =>
  `EXISTS (SELECT 1 FROM api_keys WHERE key_hash = $${first} AND xmin = $${first + 1}::xid AND revoked_at IS NULL ` +
  `AND (expires_at IS NULL OR expires_at > now()))`;

export const keyRowParams = (keyHash: string, row: KeyRow): unknown[] => [keyHash, row.version];
/** How many parameters keyRowHolds takes (keyRowParams' values): a statement's next parameter comes after them. */
export const KEY_ROW_PARAMS = 2;

/** Whether reading a key costs a statement of its own (PostgreSQL; the embedded database's rows are cached). */
export const keyReadsCostAStatement = (): boolean => !database.listenToOwnWrites;

const TOUCH_KEY: Statement = {
  name: "prs_touch_api_key_use",
  text:
    `UPDATE api_keys SET last_used_at = $2, last_used_ip = $4, last_used_route = $5 ` +
    `WHERE key_hash = $1 AND (last_used_at IS NULL OR last_used_at < $3) RETURNING ${KEY_COLUMNS}`,
};

/** Where a key's use came from: the client address and the route template (never the raw path). */
export interface KeyUse {
  ip: string | null;
  route: string;
}

/**
 * Sets a key's last_used_at to `at`, with the use's address and route, unless it is already after `after` (one
 * statement), and answers the row as written (a new version), or undefined when another write came first or the key
 * is gone.
 */
export async function touchKey(keyHash: string, at: Date, after: Date, use: KeyUse): Promise<KeyRow | undefined> {
  const [row] = await database.query<KeyRow>(TOUCH_KEY, [keyHash, at, after, use.ip, use.route]);
  return row;
}

let shared: FindKey | undefined;
/** The lookup of the service's database (created on first use, so importing this opens nothing). */
export const findKey: FindKey = (keyHash) => (shared ??= keyLookup(database))(keyHash);
