// Runs the real server (`src/server.ts`, as `npm start` does) as a child process on a free port.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

export interface ServerProcess {
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then waits for the exit (graceful shutdown). */
  stop(): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** Starts the server with `env` added to this process's environment (minus test-only settings). */
export async function startServer(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PGLITE_TEMPLATE: undefined, SQL_STATEMENT_EVENTS: undefined, LOG_LEVEL: "info", ...env, PORT: String(port), HOST: "127.0.0.1" };
  for (const [k, v] of Object.entries(childEnv)) if (v === undefined) delete childEnv[k];
  const child: ChildProcess = spawn(path.join(ROOT, "node_modules/.bin/tsx"), ["src/server.ts"], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 100_000; // a fresh PGlite runs initdb (20 s alone, more on a busy machine)
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not answer within 100 s:\n${out}`);
    }
    const up = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    output: () => out,
    stop: async () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}
