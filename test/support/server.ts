// Real processes for tests: the server (src/server.ts) and the `prs` CLI, each on the suite's database (DATABASE_URL
// when set, otherwise an on-disk PGlite directory given by the test).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

export const sharedDatabase = Boolean(process.env.DATABASE_URL);
export const tempDir = (label: string): string => mkdtempSync(path.join(os.tmpdir(), `prs-${label}-`));

/**
 * Webhook settings of every process of the suite that delivers (test/webhooks.test.ts sets the same in its own).
 * Other processes deliver nothing (WEBHOOK_CONCURRENCY=0): on the PostgreSQL of .ci/run's second pass, test files
 * run side by side and every delivering process claims every team's due deliveries, so they must all share one
 * configuration, as a deployment's processes do — a process refusing loopback URLs or retrying on the default
 * schedule would fail another file's deliveries.
 */
export const DELIVERING = { WEBHOOK_CONCURRENCY: "8", WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_RETRY_SCHEDULE: "1,1" };

/**
 * Environment of a child process: this process's minus the test-only settings of test/support/env.ts, plus the
 * database. A fresh PGlite directory starts from the suite's migrated template (skips initdb).
 */
export function childEnv(pgliteDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "test", LOG_LEVEL: "info", SQL_STATEMENT_EVENTS: "false", WEBHOOK_CONCURRENCY: "0", ...extra };
  delete env.PGLITE_TEMPLATE;
  delete env.USAGE_FLUSH_MS;
  if (sharedDatabase) delete env.PGLITE_DATA_DIR;
  else env.PGLITE_DATA_DIR = pgliteDir;
  return { ...env, ...extra };
}

/** PGlite can start a new directory from the template, and refuses to for one that holds a database. */
function withTemplate(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const dir = env.PGLITE_DATA_DIR;
  const template = process.env.PGLITE_TEMPLATE;
  const fresh = !env.DATABASE_URL && dir && !dir.includes("://") && !existsSync(path.join(dir, "PG_VERSION"));
  return fresh && template ? { ...env, PGLITE_TEMPLATE: template } : env;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Non-empty lines of stdout. */
  lines: string[];
}

/**
 * Node flags of the processes tests start. PGlite is WebAssembly: V8's optimising tier recompiles it in the background
 * for minutes of CPU that a process living a few seconds never wins back; the baseline compiler alone is enough
 * (about a quarter less CPU per process; Jest and its workers run with it too, see package.json).
 */
const NODE_FLAGS = ["--liftoff-only"];

/**
 * The service compiled to JavaScript by the global setup (test/support/process-js.ts), or undefined (then the
 * sources run through tsx, as bin/prs.js and `npm start` do).
 */
const PROCESS_JS = process.env.PRS_PROCESS_JS;

/** The command line of a process running `module` of src/ ("server.ts", "cli/prs.ts"). */
function serviceModule(module: string): string[] {
  return PROCESS_JS ? [path.join(PROCESS_JS, "src", module.replace(/\.ts$/, ".js"))] : ["--require", "tsx/cjs", path.join("src", module)];
}

/**
 * Runs `prs <args>`: the compiled CLI, or with `bin: true` the installed bin itself (bin/prs.js: the sources through
 * tsx's require hook).
 */
export function runCli(args: string[], env: NodeJS.ProcessEnv, options: { bin?: boolean } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const command = options.bin ? [path.join(ROOT, "bin/prs.js")] : serviceModule("cli/prs.ts");
    const child = spawn(process.execPath, [...NODE_FLAGS, ...command, ...args], { cwd: ROOT, env: withTemplate(env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, lines: stdout.split("\n").filter((l) => l.trim()) }));
  });
}

/** Runs the CLI and fails with its output unless it exits 0. */
export async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<string[]> {
  const result = await runCli(args, env);
  if (result.code !== 0) throw new Error(`prs ${args.join(" ")} exited ${result.code}:\n${result.stderr}${result.stdout}`);
  return result.lines;
}

/** `prs team create` then `prs key create`: the team id and the full key (last line of stdout). */
export async function cliTeamAndKey(env: NodeJS.ProcessEnv, keyArgs: string[] = []): Promise<{ teamId: string; key: string }> {
  const [teamId] = await cli(["team", "create", "--name", "CLI Realty", "--admin", "Casey Admin"], env);
  const key = (await cli(["key", "create", "--team", teamId, "--name", "test key", ...keyArgs], env)).at(-1)!;
  return { teamId, key };
}

export interface ServerProcess {
  url: string;
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts src/server.ts on a free port and resolves once it logs "listening". One Node process (compiled, or with
 * tsx's require hook as bin/prs.js runs the CLI), not the `tsx` command: that one is a second process which relays
 * signals and SIGKILLs the server when it does not acknowledge a SIGTERM within 30 ms (a busy machine), losing the
 * graceful stop.
 */
export function startServer(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [...NODE_FLAGS, ...serviceModule("server.ts")], { cwd: ROOT, env: { ...withTemplate(env), PORT: "0", HOST: "127.0.0.1" } });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail("did not start within 90 s"), 90_000);
    function fail(why: string) {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`server ${why}:\n${output}`));
    }
    child.stderr!.on("data", (d) => (output += d));
    let partial = "";
    child.stdout!.on("data", (d: Buffer) => {
      output += d;
      const lines = (partial + d.toString()).split("\n");
      partial = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith("{")) continue;
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg !== "listening") continue;
        clearTimeout(timer);
        resolve({
          url: `http://127.0.0.1:${entry.port}`,
          output: () => output,
          async stop(signal = "SIGTERM") {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    });
    void exited.then((code) => fail(`exited with ${code} before listening`));
  });
}

/** Starts src/server.ts on `port` and resolves with its exit code and output once it exits (a start that must fail). */
/** Starts the server expected to refuse to start; `port` may be any text (a wrong PORT is one such start). */
export function startServerExpectingExit(env: NodeJS.ProcessEnv, port: number | string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [...NODE_FLAGS, ...serviceModule("server.ts")], { cwd: ROOT, env: { ...withTemplate(env), PORT: String(port), HOST: "127.0.0.1" } });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}
