// A PgBouncer of a test's own in front of a PostgreSQL server, in transaction mode: a temp folder with its ini, run
// in the foreground as a child of the test (as the `postgres` user when the test runs as root: PgBouncer refuses
// root) on a free port. Debian's `pgbouncer`; `pgbouncerPath()` is null without it.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { tempDir } from "./server";
import { freePort } from "./ports";

const CANDIDATES = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"];
export const pgbouncerPath = (): string | null => CANDIDATES.find((p) => existsSync(p)) ?? null;

export interface PgBouncer {
  /** `database`'s URL through the pooler. */
  url(database: string): string;
  stop(): Promise<void>;
}


/** uid and gid of `postgres` when this process is root (PgBouncer will not run as root), else nothing to change. */
function runAs(): { uid: number; gid: number } | object {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"]).toString().trim());
  return { uid: id("-u"), gid: id("-g") };
}

async function accepting(url: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}:\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query("SELECT 1");
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  throw new Error(`pgbouncer did not accept connections within 10 s:\n${log()}`);
}

/**
 * Starts PgBouncer in front of `server` (a postgresql:// URL; its user connects without a password, as on CI),
 * serving every database name of that server (`*`), each with `poolSize` server connections.
 */
export async function startPgBouncer(server: string, poolSize: number): Promise<PgBouncer> {
  const target = new URL(server);
  const user = decodeURIComponent(target.username || "postgres");
  const dir = tempDir("pgbouncer");
  chmodSync(dir, 0o777);
  const port = await freePort();
  const ini = path.join(dir, "pgbouncer.ini");
  writeFileSync(path.join(dir, "users.txt"), `"${user}" ""\n`);
  writeFileSync(
    ini,
    [
      "[databases]",
      `* = host=${target.hostname} port=${target.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${poolSize}`,
      "max_client_conn = 500",
    ].join("\n") + "\n",
  );
  const child = spawn(pgbouncerPath()!, [ini], { ...runAs(), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const url = (database: string) => `postgresql://${encodeURIComponent(user)}@127.0.0.1:${port}/${database}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM"); // immediate shutdown
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await accepting(url(target.pathname.slice(1) || "postgres"), child, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}
