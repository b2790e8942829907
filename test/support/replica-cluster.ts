// A PostgreSQL primary and a streaming replica of a test's own: initdb, pg_basebackup -R, two free ports, a temp
// folder, run as the `postgres` user (initdb refuses root) with Debian's PostgreSQL 15 server binaries. Stopped with
// `pg_ctl -m immediate` (the replica can also be killed mid-test). `replicaBinaries()` is null without them: a test
// then skips, unless REQUIRE_REPLICA=1 (CI), where a missing binary fails it.
import { execFileSync } from "node:child_process";
import { appendFileSync, chmodSync, chownSync, existsSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { freePort } from "./ports";
import { tempDir } from "./server";

const BIN = process.env.PG_BIN_DIR ?? "/usr/lib/postgresql/15/bin";
const TOOLS = ["initdb", "pg_ctl", "pg_basebackup"];

/** The folder of the server binaries, or null when this machine has none (the test skips). */
export function replicaBinaries(): string | null {
  return TOOLS.every((t) => existsSync(path.join(BIN, t))) ? BIN : null;
}

/** Whether the replica tests must run (CI sets REQUIRE_REPLICA=1): a missing binary then fails instead of skipping. */
export const replicaRequired = process.env.REQUIRE_REPLICA === "1";

export interface ReplicaCluster {
  primaryUrl: string;
  replicaUrl: string;
  /** A SQL statement on the replica (pg_wal_replay_pause() …). */
  onReplica(sql: string): Promise<unknown[]>;
  /** Ends the replica's server at once (pg_ctl stop -m immediate): connections drop, new ones are refused. */
  killReplica(): void;
  /** Waits until the replica has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  stop(): void;
}

const asRoot = process.getuid?.() === 0;
const ids = (): { uid: number; gid: number } => ({
  uid: Number(execFileSync("id", ["-u", "postgres"]).toString().trim()),
  gid: Number(execFileSync("id", ["-g", "postgres"]).toString().trim()),
});

/** Runs one of the server binaries as `postgres` (through runuser when this process is root). */
function tool(name: string, args: string[]): string {
  const binary = path.join(BIN, name);
  const [command, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", binary, ...args]] : [binary, args];
  return execFileSync(command, argv, { stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 }).toString();
}

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Starts a primary (database `prs`) and a replica streaming from it through a replication slot. */
export async function startReplicaCluster(): Promise<ReplicaCluster> {
  const dir = tempDir("replica");
  if (asRoot) {
    const { uid, gid } = ids();
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primary = path.join(dir, "primary");
  const replica = path.join(dir, "replica");
  const sockets = path.join(dir, "sock");
  tool("initdb", ["-D", primary, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale"]);
  execFileSync(asRoot ? "runuser" : "mkdir", asRoot ? ["-u", "postgres", "--", "mkdir", sockets] : [sockets]);
  const settings = [
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${sockets}'`,
    "wal_level = replica",
    "max_wal_senders = 5",
    "max_replication_slots = 5",
    "fsync = off",
    "synchronous_commit = off",
    "full_page_writes = off",
    "max_connections = 60",
    "hot_standby = on",
    // Statement counts and times per server, for bench/replicas.ts (CREATE EXTENSION pg_stat_statements to read them).
    "shared_preload_libraries = 'pg_stat_statements'",
  ];
  appendFileSync(path.join(primary, "postgresql.conf"), [...settings, `port = ${primaryPort}`].join("\n") + "\n");
  const stopAll = () => {
    for (const data of [replica, primary]) {
      if (existsSync(path.join(data, "postmaster.pid"))) {
        try {
          tool("pg_ctl", ["stop", "-D", data, "-m", "immediate"]);
        } catch {
          // already gone
        }
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    tool("pg_ctl", ["start", "-D", primary, "-l", path.join(dir, "primary.log"), "-w"]);
    const primaryUrl = `postgresql://postgres@127.0.0.1:${primaryPort}`;
    await query(`${primaryUrl}/postgres`, "CREATE DATABASE prs");
    tool("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres", "-D", replica, "-R", "-X", "stream", "-c", "fast", "-C", "-S", "replica1"]);
    appendFileSync(path.join(replica, "postgresql.conf"), `port = ${replicaPort}\n`);
    tool("pg_ctl", ["start", "-D", replica, "-l", path.join(dir, "replica.log"), "-w"]);
  } catch (err) {
    stopAll();
    throw err;
  }
  const primaryUrl = `postgresql://postgres@127.0.0.1:${primaryPort}/prs`;
  const replicaUrl = `postgresql://postgres@127.0.0.1:${replicaPort}/prs`;
  return {
    primaryUrl,
    replicaUrl,
    onReplica: (sql) => query(replicaUrl, sql),
    killReplica: () => void tool("pg_ctl", ["stop", "-D", replica, "-m", "immediate"]),
    async caughtUp() {
      const [{ lsn }] = (await query(primaryUrl, "SELECT pg_current_wal_lsn()::text AS lsn")) as Array<{ lsn: string }>;
      for (let i = 0; i < 200; i++) {
        const [row] = (await query(replicaUrl, `SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS done`)) as Array<{ done: boolean }>;
        if (row.done) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error("the replica did not catch up within 10 s");
    },
    stop: stopAll,
  };
}
