#!/usr/bin/env node
// Type-checks one project (`tsc -p <project> --incremental`) unless nothing it reads changed since its last clean
// check (./stale.mjs). `npm test` runs it first: even with nothing changed, tsc still parses every file of the
// program (about 4 s for the service, 2 s for the dashboard on a 2-core machine) before it finds its cached answers.
//   node scripts/typecheck-if-stale.mjs <project dir> <input>...
import { spawnSync } from "node:child_process";
import path from "node:path";
import { cacheDir, root, unlessUnchanged } from "./stale.mjs";

const [project, ...inputs] = process.argv.slice(2);
if (!project || inputs.length === 0) {
  console.error("usage: node scripts/typecheck-if-stale.mjs <project dir> <input file or directory>...");
  process.exit(2);
}
const name = project === "." ? "tsc" : `tsc-${project.replace(/[^A-Za-z0-9]+/g, "-")}`;
const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
unlessUnchanged(name, inputs, () =>
  spawnSync(process.execPath, [tsc, "-p", project, "--incremental", "--tsBuildInfoFile", path.join(cacheDir, `${name}.tsbuildinfo`)], {
    cwd: root,
    stdio: "inherit",
  }).status,
);
