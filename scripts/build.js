#!/usr/bin/env node
// `npm run build`: the service compiled to plain JavaScript in dist/, so `npm start` runs no transpiler.
// Run by `npm install` (postinstall) and by `npm start` (`--if-stale`: only when a source is newer than the build),
// so the quick start stays `npm install && npm start` and an edited source is never served stale.
//
// One .js (and its source map) per .ts, with esbuild and no bundling: dist/ mirrors src/ at the same depth, so a
// module finds what lies beside the sources (prisma/migrations, dashboard/dist, data/, .env) by the same relative
// path compiled or not. Data files the modules read (fair-housing.json) are copied. No `keepNames`: tsx compiles
// with it, and every named closure then costs a defineProperty each time it is made (seen in request profiles).
//   node scripts/build.js [--if-stale]
const { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const SRC = path.join(ROOT, "src");
const DIST = path.join(ROOT, "dist");
const STAMP = ".built";

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Whether `outdir` holds a build newer than every file under src/ (and src/ has no file the build lacks). */
function isFresh(outdir) {
  const stamp = path.join(outdir, STAMP);
  if (!existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  // A directory's time changes when a file in it is added, renamed or deleted.
  const entries = [SRC, ...readdirSync(SRC, { withFileTypes: true, recursive: true }).map((e) => path.join(e.parentPath, e.name))];
  return entries.every((p) => statSync(p).mtimeMs <= built);
}

/**
 * Compiles src/ into `outdir` (default dist/), replacing what was there; `sourcemap: false` for throwaway builds.
 * Returns the directory.
 */
async function buildService({ outdir = DIST, sourcemap = true } = {}) {
  const esbuild = require("esbuild");
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const files = filesUnder(SRC);
  await esbuild.build({
    entryPoints: files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")),
    outdir,
    outbase: SRC,
    bundle: false,
    format: "cjs",
    platform: "node",
    target: "node20",
    sourcemap: sourcemap ? "linked" : false,
    // Source maps point back at src/ relative to the map, so stack traces name the TypeScript files.
    sourceRoot: undefined,
    logLevel: "error",
  });
  for (const file of files.filter((f) => !f.endsWith(".ts"))) cpSync(file, path.join(outdir, path.relative(SRC, file)));
  writeFileSync(path.join(outdir, STAMP), `${new Date().toISOString()}\n`);
  return outdir;
}

module.exports = { buildService, isFresh, DIST };

if (require.main === module) {
  const ifStale = process.argv.includes("--if-stale");
  if (ifStale && isFresh(DIST)) process.exit(0);
  buildService().then(
    (dir) => console.log(`service built: ${path.relative(ROOT, dir)}`),
    (err) => {
      console.error(`build failed: ${err.message}`);
      process.exit(1);
    },
  );
}
