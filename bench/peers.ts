// The other servers of scenarios 8 and 9, each its own process on an ephemeral loopback port, both on
// PostgreSQL only (they read the bench database with pg):
//   PostGraphile 5 – bench/peers/postgraphile: its own package.json, installed there on first use (npm ci), never
//                    in the service's dependencies (it needs Node >= 22; on Node 20 it runs with the
//                    Promise.withResolvers polyfill loaded by `node --import`).
//   reference      – bench/reference.ts: node:http + pg, the body built by PostgreSQL in one statement.
import { execFileSync, fork, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

export interface Peer {
  port: number;
  /** The peer's process (e.g. for its CPU time). */
  pid: number;
  stop(): Promise<void>;
}

const POSTGRAPHILE_DIR = path.join(__dirname, "peers", "postgraphile");

/** npm ci in the peer's folder when its node_modules is missing (about 30 s and 300 MB the first time). */
export function ensurePostgraphile(log: (message: string) => void): void {
  if (existsSync(path.join(POSTGRAPHILE_DIR, "node_modules", "postgraphile", "package.json"))) return;
  log(`installing PostGraphile into ${path.relative(process.cwd(), POSTGRAPHILE_DIR)} (first use)`);
  // Its EBADENGINE warning (Node >= 22) is expected and handled by the polyfill; only errors are shown.
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: POSTGRAPHILE_DIR, stdio: "inherit" });
}

function start(script: string, execArgv: string[], env: Record<string, string>): Promise<Peer> {
  const child: ChildProcess = fork(script, [], {
    cwd: path.dirname(script),
    execArgv,
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", GRAPHILE_ENV: "production", ...env },
  });
  return new Promise<Peer>((resolve, reject) => {
    child.once("message", (m: { ready?: boolean; port?: number }) => {
      if (!m.ready || !m.port) return reject(new Error(`${script}: bad message`));
      resolve({
        port: m.port,
        pid: child.pid!,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
}

export const startPostgraphile = (databaseUrl: string) =>
  start(path.join(POSTGRAPHILE_DIR, "server.mjs"), ["--import", "./polyfill.mjs"], { DATABASE_URL: databaseUrl });

export const startReference = (databaseUrl: string, teamId: string) =>
  start(path.join(__dirname, "reference.ts"), ["--import", "tsx"], { DATABASE_URL: databaseUrl, BENCH_TEAM_ID: teamId });
