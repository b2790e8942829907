// Read replicas (README "Read replicas", ARCHITECTURE.md "Beyond one machine"): DATABASE_REPLICA_URLS names streaming
// replicas of the PostgreSQL primary. A query whose answer is built only from the rows the team-version triggers watch
// may be answered by a replica, chosen once per request by the executor (src/schema/engine.ts):
//
// - Read-your-writes, exactly. Every committed change of a team's data bumps its row in `team_versions` in the
//   change's own transaction. The request reads that version on the primary (one statement for the requests of an
//   event-loop turn), and a replica serves it only when the replica's own `team_versions` row of the team has reached
//   it: the replica has then replayed the team's last commit, and, replaying in order, everything before it. A
//   replica's versions only grow, so the highest one seen per team is kept and most requests ask the replica nothing.
//   (A WAL position taken inside the writing transaction comes before its commit record, so on its own it could not
//   tell that the commit was replayed; one taken after the commit would need another write.)
// - Health, polled in the background every POLL_MS: each replica's `pg_last_wal_replay_lsn()` and whether replay is
//   paused, against the primary's `pg_current_wal_lsn()` samples: the lag is the age of the oldest primary position
//   the replica has not replayed. A paused replica, or one lagging DATABASE_REPLICA_MAX_LAG_MS or more, is skipped.
// - Failures. A replica that does not answer (down, killed, connection refused, past its short timeouts) is skipped
//   for RETRY_AFTER_MS; the statement that found it runs again on the primary within the same request, and so do the
//   request's later statements. Writes never go to a replica: Prisma's write operations and transactions of a request
//   reading from a replica still run on the primary.
import { AsyncLocalStorage } from "node:async_hooks";
import type { PrismaPg as PrismaPgAdapter } from "@prisma/adapter-pg";
import DataLoader from "dataloader";
import { LRUCache } from "lru-cache";
import type pg from "pg";
import { config } from "../config";
import { PrismaClient } from "../generated/prisma/client";
import { logger } from "../logger";
import { keepStatementBudget } from "./budget";
import { pgDriver } from "./connections";
import { databaseFailure } from "./errors";
import { database, routeModelReads } from "./index";
import { withSafeRelationLoading } from "./load-strategy";
import type { Statement } from "./open";
import { preparedStatements, withoutPoolerFlag } from "./prepared";

/** How often each replica's replay position (and the primary's WAL position) is read. */
const POLL_MS = 150;
/** A replica that failed is not tried again before this. */
export const RETRY_AFTER_MS = 30_000;
/** Connecting to a replica, and a health poll, may take this long before the replica counts as down. */
const CONNECT_TIMEOUT_MS = 1_000;
/** A replica's statement budget (the primary's DB_TIMEOUT_MS, at most this): past it the read runs on the primary. */
const MAX_STATEMENT_MS = 3_000;
/** A replica whose last successful poll is older than this is not used (its numbers are stale). */
const STALE_AFTER_MS = 3_000;

export type ReplicaStatus = "ok" | "lagging" | "down";

interface Replica {
  /** host:port/database: what /ready and metrics call it (never the credentials). */
  name: string;
  pool: pg.Pool;
  prisma?: PrismaClient;
  paused: boolean;
  lagMs: number | null;
  /** When the last poll succeeded (0: never). */
  polledAt: number;
  /** Not tried again before this time (a failure). */
  downUntil: number;
  /** Team id → the highest data version seen on this replica. */
  versions: LRUCache<string, bigint>;
  loadVersion: DataLoader<string, bigint>;
  /** The one-statement path's statements, named as on the primary (src/db/prepared.ts). */
  run(statement: Statement, params: unknown[]): Promise<unknown[]>;
}

/** Where one request's reads go: a replica while `replica` is set and the request runs, else the primary. */
export interface ReadTarget {
  replica?: Replica;
  /** The request ended: anything still running with this target (a timer it started) uses the primary. */
  done: boolean;
  /** The driver for the one-statement path: the replica's pool, the primary when it fails. */
  database: { query<Row>(statement: Statement, params: unknown[]): Promise<Row[]> };
}

/** The request's read target for the `prisma` singleton (src/db/index.ts routes model reads through it). */
export const readScope = new AsyncLocalStorage<ReadTarget>();

// The `prisma` singleton's model reads, during a request reading from a replica, go to that replica's client.
routeModelReads(() => {
  const read = readScope.getStore();
  if (!read?.replica || read.done) return undefined;
  return (read.replica.prisma ??= replicaPrisma(read.replica));
});

const nameOf = (url: string): string => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}${u.pathname}`;
};

/** 'X/Y' (pg_lsn as text) → a comparable number. */
const lsnOf = (text: string): bigint => {
  const [high, low] = text.split("/");
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
};

/** Whether a replica's failure should send the read to the primary, and whether the replica is then skipped. */
function replicaFault(err: unknown): "down" | "retry" | null {
  if (databaseFailure(err)) return "down";
  const text = String((err as Error)?.message ?? "") + String((err as { cause?: Error })?.cause?.message ?? "");
  // A query cancelled by replay (a conflict with recovery), or a write that reached a replica after all.
  if (/conflict with recovery|read-only transaction|recovery is in progress/i.test(text)) return "retry";
  return null;
}

const VERSIONS = "SELECT team_id::text AS team, version::text AS version FROM team_versions WHERE team_id = ANY($1::uuid[])";

/** One statement for the teams of the requests of one event-loop turn: each team's data version (0: none yet). */
function versionLoader(query: (teams: readonly string[]) => Promise<Array<{ team: string; version: string }>>) {
  return new DataLoader<string, bigint>(
    async (teams) => {
      const rows = await query(teams);
      const byTeam = new Map(rows.map((r) => [r.team, BigInt(r.version)]));
      return teams.map((t) => byTeam.get(t) ?? 0n);
    },
    { cache: false, batchScheduleFn: (run) => setImmediate(run) },
  );
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function openReplica(given: string): Replica {
  const { url, pooler } = withoutPoolerFlag(given);
  const pool = new (pgDriver().Pool)({
    connectionString: url,
    max: config.DATABASE_POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    allowExitOnIdle: true,
  });
  const name = nameOf(url);
  pool.on("error", (err) => logger.warn({ replica: name, err: err.message }, "replica connection lost"));
  const budget = Math.min(config.DB_TIMEOUT_MS, MAX_STATEMENT_MS);
  pool.on("connect", (client) => keepStatementBudget(client, budget));
  const replica: Replica = {
    name,
    pool,
    paused: false,
    lagMs: null,
    polledAt: 0,
    downUntil: 0,
    versions: new LRUCache({ max: 10_000 }),
    loadVersion: versionLoader(async (teams) => (await pool.query(VERSIONS, [teams])).rows),
    run: preparedStatements(
      config.DATABASE_PREPARED_STATEMENTS ?? (pooler ? "pooler" : "auto"),
      async (name, statement, values) => (await pool.query({ name, text: statement.text, values })).rows,
      (text, values) => pool.query(text, values),
    ).run,
  };
  return replica;
}

function markDown(replica: Replica, err: unknown): void {
  if (replica.downUntil <= Date.now()) logger.warn({ replica: replica.name, err: (err as Error)?.message }, "replica skipped for 30 s");
  replica.downUntil = Date.now() + RETRY_AFTER_MS;
  replica.polledAt = 0;
}

/** The read of `read` failed on its replica: this and the request's next reads go to the primary. */
function fellBack(read: ReadTarget | undefined, replica: Replica, err: unknown): void {
  if (replicaFault(err) === "down") markDown(replica, err);
  if (read?.replica === replica) read.replica = undefined;
}

const READ_OPERATIONS = new Set(["findFirst", "findFirstOrThrow", "findUnique", "findUniqueOrThrow", "findMany", "count", "aggregate", "groupBy"]);
type Delegates = Record<string, Record<string, (args: unknown) => Promise<unknown>>>;

/** A replica's Prisma client: reads there (the primary's when it fails); any write operation on the primary. */
function replicaPrisma(replica: Replica): PrismaClient {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with the driver (connections.ts pgDriver)
  const { PrismaPg } = require("@prisma/adapter-pg") as { PrismaPg: typeof PrismaPgAdapter };
  const base = new PrismaClient({ adapter: new PrismaPg(replica.pool) });
  const onPrimary = (model: string, operation: string, args: unknown) =>
    (database.prisma as unknown as Delegates)[model[0].toLowerCase() + model.slice(1)][operation](args);
  const routed = base.$extends({
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          if (!READ_OPERATIONS.has(operation)) return onPrimary(model, operation, args);
          try {
            return await query(args);
          } catch (err) {
            if (!replicaFault(err)) throw err;
            fellBack(readScope.getStore(), replica, err);
            return onPrimary(model, operation, args);
          }
        },
      },
    },
  });
  return withSafeRelationLoading(routed as unknown as PrismaClient);
}

// ---- the replicas of this process, their health, and the choice per request ----

let replicas: Replica[] | null | undefined;
let poller: NodeJS.Timeout | undefined;
/** The primary's WAL positions as they were seen to change, oldest first (the last RETRY_AFTER_MS, and the latest). */
const samples: Array<{ lsn: bigint; at: number }> = [];
let polling = false;
let turn = 0;

const PRIMARY_LSN: Statement = { name: "prs_primary_lsn", text: "SELECT pg_current_wal_lsn()::text AS lsn" };
const REPLAY = "SELECT pg_last_wal_replay_lsn()::text AS lsn, pg_is_wal_replay_paused() AS paused";

/** How long ago the primary first reached a position `replayed` lacks (0: the replica has everything seen). */
function lagOf(replayed: bigint, now: number): number {
  const first = samples.find((s) => s.lsn > replayed);
  return first ? now - first.at : 0;
}

async function pollReplica(replica: Replica, now: number): Promise<void> {
  if (replica.downUntil > now) return;
  try {
    const { rows } = await withTimeout(replica.pool.query<{ lsn: string | null; paused: boolean }>(REPLAY), CONNECT_TIMEOUT_MS);
    if (!rows[0]?.lsn) throw new Error("not a streaming replica (no replay position)");
    replica.paused = rows[0].paused;
    replica.lagMs = lagOf(lsnOf(rows[0].lsn), Date.now());
    replica.polledAt = Date.now();
  } catch (err) {
    markDown(replica, err);
  }
}

async function poll(): Promise<void> {
  if (polling || !replicas) return;
  polling = true;
  try {
    const now = Date.now();
    const [row] = await withTimeout(database.query<{ lsn: string }>(PRIMARY_LSN, []), CONNECT_TIMEOUT_MS).catch(() => []);
    if (row) {
      const lsn = lsnOf(row.lsn);
      if (!samples.length || samples[samples.length - 1].lsn !== lsn) samples.push({ lsn, at: now });
      while (samples.length > 1 && samples[0].at < now - RETRY_AFTER_MS) samples.shift();
    }
    await Promise.all(replicas.map((r) => pollReplica(r, now)));
  } finally {
    polling = false;
  }
}

/** This process's replicas, opened (and their polling started) on first use; null when none are configured. */
function replicaSet(): Replica[] | null {
  if (replicas !== undefined) return replicas;
  replicas = config.DATABASE_REPLICA_URLS.length && config.DATABASE_URL ? config.DATABASE_REPLICA_URLS.map(openReplica) : null;
  if (replicas) {
    poller = setInterval(() => void poll(), POLL_MS).unref();
    void poll();
  }
  return replicas;
}

/** Whether this process has replicas configured. */
export const hasReplicas = (): boolean => replicaSet() !== null;

function statusOf(replica: Replica, now = Date.now()): ReplicaStatus {
  if (replica.downUntil > now || !replica.polledAt || now - replica.polledAt > STALE_AFTER_MS) return "down";
  if (replica.paused || replica.lagMs === null || replica.lagMs >= config.DATABASE_REPLICA_MAX_LAG_MS) return "lagging";
  return "ok";
}

/** Each replica's status and lag, for /ready and metrics (empty without replicas). */
export function replicaStates(): Array<{ name: string; status: ReplicaStatus; lagMs: number | null }> {
  return (replicaSet() ?? []).map((r) => ({ name: r.name, status: statusOf(r), lagMs: r.lagMs }));
}

/** Reads answered per target since the process started (the metric prs_db_reads_total). */
export const readsServed = { primary: 0, replica: 0 };

let primaryVersions: DataLoader<string, bigint> | undefined;
const primaryVersion = (teamId: string) =>
  (primaryVersions ??= versionLoader((teams) => database.query<{ team: string; version: string }>({ name: "prs_team_versions", text: VERSIONS }, [teams]))).load(teamId);

/** Whether `replica` holds the team's data at `version` or later (asking it only when not seen already). */
async function hasReplayed(replica: Replica, teamId: string, version: bigint): Promise<boolean> {
  const seen = replica.versions.get(teamId);
  if (seen !== undefined && seen >= version) return true;
  try {
    const found = await withTimeout(replica.loadVersion.load(teamId), CONNECT_TIMEOUT_MS);
    if (seen === undefined || found > seen) replica.versions.set(teamId, found);
    return found >= version;
  } catch (err) {
    markDown(replica, err);
    return false;
  }
}

function target(): ReadTarget {
  const read: ReadTarget = {
    done: false,
    database: {
      async query<Row>(statement: Statement, params: unknown[]): Promise<Row[]> {
        const replica = read.done ? undefined : read.replica;
        if (!replica) return database.query<Row>(statement, params);
        try {
          return (await replica.run(statement, params)) as Row[];
        } catch (err) {
          if (!replicaFault(err)) throw err;
          fellBack(read, replica, err);
          return database.query<Row>(statement, params);
        }
      },
    },
  };
  return read;
}

/**
 * The read target of a request of `teamId`: a replica that is ok and has replayed the team's last write, else the
 * primary. `confirm` (the request's riders whose answer is the primary's, context.ts: a key admitted unread) is
 * asked on the primary meanwhile: a request it refuses reads nothing from a replica.
 */
export async function chooseRead(teamId: string, confirm?: () => Promise<boolean>): Promise<ReadTarget> {
  const read = target();
  const healthy = (replicaSet() ?? []).filter((r) => statusOf(r) === "ok");
  if (!healthy.length) return read;
  let version: bigint;
  try {
    const [v, held] = await Promise.all([primaryVersion(teamId), confirm ? confirm() : true]);
    if (!held) return read;
    version = v;
  } catch {
    return read; // the primary's failure is the read's to answer
  }
  const first = turn++ % healthy.length;
  for (let i = 0; i < healthy.length; i++) {
    const replica = healthy[(first + i) % healthy.length];
    if (await hasReplayed(replica, teamId, version)) {
      read.replica = replica;
      break;
    }
  }
  return read;
}

/** Runs `fn` (a request's execution) reading from `read`'s target, and counts where its reads were served. */
export async function readingFrom<T>(read: ReadTarget, fn: () => Promise<T>): Promise<T> {
  try {
    return await (read.replica ? readScope.run(read, fn) : fn());
  } finally {
    readsServed[read.replica ? "replica" : "primary"]++;
    read.done = true;
  }
}

/** Stops polling and closes the replicas' connections (at shutdown). */
export async function closeReplicas(): Promise<void> {
  clearInterval(poller);
  const open = replicas ?? [];
  replicas = undefined;
  await Promise.all(open.map(async (r) => {
    await r.prisma?.$disconnect().catch(() => undefined);
    if (!r.pool.ended) await r.pool.end().catch(() => undefined);
  }));
}
