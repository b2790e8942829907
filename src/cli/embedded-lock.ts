// PGlite (the embedded database) is single-process: two processes on one data directory would overwrite each
// other's writes. The server marks the directory it serves with its pid; the CLI and other servers refuse to
// open a directory a live process has marked. PostgreSQL (DATABASE_URL) needs none of this.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "../config";

const embeddedDir = (): string | null =>
  config.DATABASE_URL || config.PGLITE_DATA_DIR.includes("://") ? null : path.resolve(config.PGLITE_DATA_DIR);
const pidFile = (dir: string) => path.join(dir, "prs-server.pid");

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The message to refuse with when a live server (other than this process) serves the embedded database. */
export function embeddedDatabaseInUse(): string | null {
  const dir = embeddedDir();
  if (!dir) return null;
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile(dir), "utf8").trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid === process.pid || !isAlive(pid)) return null;
  return `The server (pid ${pid}) has the embedded database ${dir} open, and PGlite serves one process at a time: stop the server first, or use PostgreSQL (DATABASE_URL)`;
}

/** Marks the embedded database as served by this process until `release` (called at graceful shutdown). */
export function claimEmbeddedDatabase(): { release(): void } {
  const dir = embeddedDir();
  if (!dir) return { release: () => undefined };
  writeFileSync(pidFile(dir), `${process.pid}\n`);
  return { release: () => rmSync(pidFile(dir), { force: true }) };
}
