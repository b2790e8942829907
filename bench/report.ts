// The results table (stdout) and the same data as JSON (--json <file>).
import { writeFileSync } from "node:fs";
import os from "node:os";
import type { ScenarioResult } from "./scenarios/types";

export interface RunInfo {
  mode: "full" | "quick";
  database: string;
  redis: boolean;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; platform: string };
  startedAt: string;
  seconds: number;
}

export const machine = (): RunInfo["machine"] => ({
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? "unknown",
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
});

const fmt = (n: number | undefined, digits = 0) => (n === undefined || Number.isNaN(n) ? "" : n.toFixed(digits));

export function table(info: RunInfo, results: ScenarioResult[]): string {
  const header = ["#", "scenario / side", "req/s", "p50 ms", "p99 ms", "errors", "value", "target", "measured", "result"];
  const lines: string[][] = [];
  for (const r of results) {
    lines.push([String(r.id), r.title, "", "", "", "", "", r.target, r.measured, r.judged === false ? "n/a" : r.pass ? "PASS" : "FAIL"]);
    for (const row of r.rows) {
      lines.push(["", `  ${row.label}`, fmt(row.rps), fmt(row.p50, 2), fmt(row.p99, 2), row.errors === undefined ? "" : String(row.errors), row.value ?? "", "", "", ""]);
    }
    for (const note of r.notes) lines.push(["", `  note: ${note}`, "", "", "", "", "", "", "", ""]);
  }
  // Notes and titles may be long: they do not widen the numeric columns.
  const widths = header.map((h, c) => Math.max(h.length, ...lines.filter((l) => !l[1].startsWith("  note:")).map((l) => l[c].length)));
  const render = (cells: string[]) =>
    cells[1].startsWith("  note:") ? `| ${"".padEnd(widths[0])} | ${cells[1]}` : `| ${cells.map((c, i) => (i >= 2 && i <= 5 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(" | ")} |`;
  const rule = `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`;
  const m = info.machine;
  return [
    `Property Report Service benchmark (${info.mode}) — ${info.database}${info.redis ? " + Redis" : ""}, ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB, Node ${m.node}, ${info.seconds} s`,
    "",
    render(header),
    rule,
    ...lines.map(render),
    "",
    `${results.filter((r) => r.judged !== false && r.pass).length}/${results.filter((r) => r.judged !== false).length} targets met${results.some((r) => r.judged === false) ? ` (${results.filter((r) => r.judged === false).length} not judged on this database)` : ""}`,
  ].join("\n");
}

export function writeJson(file: string, info: RunInfo, results: ScenarioResult[]): void {
  writeFileSync(file, `${JSON.stringify({ ...info, scenarios: results }, null, 2)}\n`);
}
