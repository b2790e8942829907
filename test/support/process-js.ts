// The service compiled to plain JavaScript for the processes the tests start (servers, the CLI), once per test run
// in the global setup. Started with tsx's require hook instead, each process spent about a second of CPU in tsx
// (resolving every require through its hooks, reading its transform cache) before the service's own start; the
// suite starts about thirty.
//
// One .js per .ts (esbuild, no bundling: what tsx does to each file, done ahead), laid out as in the repository
// under node_modules/.cache/prs/process-js, beside links to what the service finds relative to its own files
// (prisma/migrations, dashboard/dist, package.json), so src/server.ts runs as <dir>/src/server.js exactly as it does
// from the sources (packages resolve from the repository's node_modules, an ancestor of the directory).
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
export const PROCESS_JS_DIR = path.join(ROOT, "node_modules", ".cache", "prs", "process-js");

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Compiles src/ into PROCESS_JS_DIR (replacing what an earlier run left) and returns the directory. */
export async function buildProcessJs(): Promise<string> {
  // Loaded here: esbuild is needed by the global setup only.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require("esbuild") as typeof import("esbuild");
  const out = PROCESS_JS_DIR;
  rmSync(path.join(out, "src"), { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const files = filesUnder(path.join(ROOT, "src"));
  await esbuild.build({
    entryPoints: files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")),
    outdir: out,
    outbase: ROOT,
    bundle: false,
    format: "cjs",
    platform: "node",
    target: "node20",
    logLevel: "error",
  });
  // Data files the modules read or import (fair-housing.json).
  for (const file of files.filter((f) => !f.endsWith(".ts"))) cpSync(file, path.join(out, path.relative(ROOT, file)));
  for (const link of ["prisma", "dashboard", "package.json"]) {
    if (!existsSync(path.join(out, link))) symlinkSync(path.join(ROOT, link), path.join(out, link));
  }
  return out;
}
