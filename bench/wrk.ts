// Load from wrk (Debian's package `wrk`), for the side-by-side runs of bench/production.ts: a load generator written in
// C with one thread takes a small, steady share of the 2 cores the servers and PostgreSQL share, where autocannon in
// the bench's own Node process takes about as much CPU per request as a light server does — which pulls every ratio
// towards 1×. The requests are the target's own (`next()` called ahead of time, up to 500 different ones, sent in
// turn by a Lua script). Latency percentiles come from wrk's histogram; `statuses` holds only the non-2xx count.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Measurement, Target } from "./load";

const WRK = "/usr/bin/wrk";
export const wrkInstalled = (): boolean => existsSync(WRK);

const lua = (text: string) => JSON.stringify(text); // a JSON string is a valid Lua string literal here (no \u escapes needed for ASCII)

/** The Lua script sending `requests` in turn. */
function script(target: Target, count: number): string {
  const requests = Array.from({ length: count }, () => target.next());
  const headers = { "content-type": "application/json", ...target.headers };
  return [
    `local method = ${lua(target.method ?? "GET")}`,
    `local headers = { ${Object.entries(headers).map(([k, v]) => `[${lua(k)}] = ${lua(v)}`).join(", ")} }`,
    `local paths = { ${requests.map((r) => lua(r.path)).join(", ")} }`,
    `local bodies = { ${requests.map((r) => (r.body === undefined ? "false" : lua(JSON.stringify(r.body)))).join(", ")} }`,
    "local i = 0",
    "request = function()",
    "  i = i % #paths + 1",
    "  local body = bodies[i]",
    "  if body == false then body = nil end",
    "  return wrk.format(method, paths[i], headers, body)",
    "end",
  ].join("\n");
}

const ms = (value: string, unit: string) => Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? 1);

/** One wrk run against `target`: requests per second, latency percentiles, errors. */
export async function measureWrk(target: Target, connections: number, seconds: number): Promise<Measurement> {
  const dir = mkdtempSync(path.join(tmpdir(), "prs-wrk-"));
  const file = path.join(dir, "requests.lua");
  writeFileSync(file, script(target, 500));
  try {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(WRK, ["-t1", `-c${connections}`, `-d${seconds}s`, "--latency", "-s", file, `http://127.0.0.1:${target.port}`], (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      ),
    );
    const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
    const percentile = (p: number) => {
      const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
      return m ? ms(m[1], m[2]) : NaN;
    };
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
    const socketErrors = socket ? socket.slice(1).reduce((n, v) => n + Number(v), 0) : 0;
    return { rps, p50: percentile(50), p99: percentile(99), requests, errors: non2xx + socketErrors, ok: requests - non2xx, statuses: non2xx ? { 0: non2xx } : {} };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
