#!/usr/bin/env node
// Type-checks one project (`tsc -p <project> --incremental`) unless nothing it reads changed since its last clean
// check. `npm test` runs it first: even with nothing changed, tsc still parses every file of the program (about
// 4 s for the service, 2 s for the dashboard on a 2-core machine) before it finds its cached answers.
//
// "Nothing changed" is the same list of files and directories with the same sizes and modification times as when
// tsc last passed (a digest kept in node_modules/.cache/prs): an edit, a new, renamed or deleted file (its directory's
// time changes) or a new install (package-lock.json, node_modules/.package-lock.json) runs tsc again. A failing
// check leaves no digest, so it runs again next time.
//   node scripts/typecheck-if-stale.mjs <project dir> <input>...
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const [project, ...inputs] = process.argv.slice(2);
if (!project || inputs.length === 0) {
  console.error("usage: node scripts/typecheck-if-stale.mjs <project dir> <input file or directory>...");
  process.exit(2);
}
const cache = path.join(root, "node_modules", ".cache", "prs");
const name = project === "." ? "tsc" : `tsc-${project.replace(/[^A-Za-z0-9]+/g, "-")}`;
const stampFile = path.join(cache, `${name}.inputs`);

function digest() {
  const hash = createHash("sha256");
  const visit = (p) => {
    if (!existsSync(p)) return void hash.update(`missing ${p}\n`);
    const s = statSync(p);
    hash.update(`${path.relative(root, p)} ${s.size} ${s.mtimeMs}\n`);
    if (s.isDirectory()) for (const entry of readdirSync(p).sort()) if (entry !== "node_modules") visit(path.join(p, entry));
  };
  for (const input of [...inputs, "package-lock.json", "node_modules/.package-lock.json"]) visit(path.join(root, input));
  return hash.digest("hex");
}

const before = digest();
if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === before) process.exit(0);

const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
const result = spawnSync(process.execPath, [tsc, "-p", project, "--incremental", "--tsBuildInfoFile", path.join(cache, `${name}.tsbuildinfo`)], {
  cwd: root,
  stdio: "inherit",
});
if (result.status !== 0) process.exit(result.status ?? 1);
// Only what tsc saw: a file edited while it ran makes the next run check again.
mkdirSync(cache, { recursive: true });
if (digest() === before) writeFileSync(stampFile, before);
