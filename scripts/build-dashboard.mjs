#!/usr/bin/env node
// Builds the team dashboard (dashboard/, Preact + Vite) into dashboard/dist, which the server serves at /dashboard.
// Run by `npm install`/`npm ci` (postinstall, after the Prisma client) and by `npm start` (`--if-stale`: only when
// the output is missing or older than a source), so `npm install && npm start` needs no other step.
// Also writes dashboard/src/graphql-env.d.ts, the types gql.tada derives from the committed schema.graphql.
// Without the build tools (an install with --omit=dev) it says so and exits 0: the API works, /dashboard answers 503.
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const dir = path.join(root, "dashboard");
const output = path.join(dir, "dist", "index.html");

/** The newest modification time among the dashboard's sources (and the schema its types come from). */
function newestSource() {
  let newest = statSync(path.join(root, "schema.graphql")).mtimeMs;
  const visit = (p) => {
    const s = statSync(p);
    if (s.isDirectory()) for (const entry of readdirSync(p)) visit(path.join(p, entry));
    else if (!p.endsWith("graphql-env.d.ts")) newest = Math.max(newest, s.mtimeMs);
  };
  for (const entry of ["src", "index.html", "vite.config.mts"]) visit(path.join(dir, entry));
  return newest;
}

const types = path.join(dir, "src", "graphql-env.d.ts");
const fresh = () => existsSync(output) && existsSync(types) && statSync(output).mtimeMs >= newestSource();
if (process.argv.includes("--if-stale") && fresh()) process.exit(0);

const require = createRequire(import.meta.url);
let vite;
try {
  vite = await import(require.resolve("vite"));
} catch {
  console.error("dashboard not built: its build tools are not installed (npm install without --omit=dev builds it)");
  process.exit(0);
}

const { execFileSync } = await import("node:child_process");
execFileSync(process.execPath, [path.join(path.dirname(require.resolve("gql.tada/package.json")), "bin", "cli.js"), "generate", "output", "--tsconfig", path.join(dir, "tsconfig.json")], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
});
await vite.build({ configFile: path.join(dir, "vite.config.mts"), logLevel: "warn" });
console.error(`dashboard built: ${path.relative(root, path.dirname(output))}`);
