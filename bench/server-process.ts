// Starts bench/server.ts as its own Node process with production settings and waits for its ports.
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { ServerPorts } from "./server";

export interface ServerOptions {
  /** DATABASE_URL, PGLITE_DATA_DIR, REDIS_URL … as the service reads them. */
  env: Record<string, string | undefined>;
  /** The team whose key the auth-less build runs as. */
  benchTeamId: string;
  statementEvents: boolean;
  /** Write a V8 CPU profile of the server to this directory (node --cpu-prof). */
  cpuProfileDir?: string;
}

export interface RunningServer {
  ports: ServerPorts;
  pid: number;
  stop(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const execArgv = ["--import", "tsx"];
  if (options.cpuProfileDir) execArgv.push("--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`);
  const child: ChildProcess = fork(path.join(__dirname, "server.ts"), [], {
    execArgv,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      // Rate limiting stays on and counted; the budget is large enough for a benchmark's request volume.
      RATE_LIMIT_ENTERPRISE: "1000000000",
      // Scenario 7's receiver listens on loopback.
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      SQL_STATEMENT_EVENTS: String(options.statementEvents),
      BENCH_TEAM_ID: options.benchTeamId,
      // The bench connects to PostgreSQL directly, where the service names its statements by itself; set
      // DATABASE_PREPARED_STATEMENTS=false to measure unnamed ones (as behind a transaction pooler).
      ...(process.env.DATABASE_PREPARED_STATEMENTS ? { DATABASE_PREPARED_STATEMENTS: process.env.DATABASE_PREPARED_STATEMENTS } : {}),
      ...options.env,
    },
  });
  const ports = await new Promise<ServerPorts>((resolve, reject) => {
    child.once("message", (m: { ready?: boolean; ports?: ServerPorts }) => (m.ready && m.ports ? resolve(m.ports) : reject(new Error("bad message"))));
    child.once("exit", (code) => reject(new Error(`bench server exited with ${code} before it was ready`)));
  });
  return {
    ports,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
