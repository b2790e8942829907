// The service compiled to plain JavaScript for the processes the tests start (servers, the CLI), once per test run
// in the global setup. Started with tsx's require hook instead, each process spent about a second of CPU in tsx
// (resolving every require through its hooks, reading its transform cache) before the service's own start; the
// suite starts about thirty.
//
// The same build as `npm run build` (scripts/build.js), laid out as in the repository under
// node_modules/.cache/prs/process-js-<pid>, beside links to what the service finds relative to its own files
// (prisma/migrations, dashboard/dist, package.json), so src/server.ts runs as <dir>/src/server.js exactly as it does
// from the sources (packages resolve from the repository's node_modules, an ancestor of the directory).
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const CACHE = path.join(ROOT, "node_modules", ".cache", "prs");

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Compiles src/ with `npm run build`'s own function into a directory of this test run's own
 * (node_modules/.cache/prs/process-js-<pid>: two runs at once in one checkout never rebuild under each other's
 * processes), removes those of runs that have ended, and returns it.
 */
export async function buildProcessJs(): Promise<string> {
  // A CommonJS script of the repository (scripts/build.js), loaded here: it needs esbuild, for the global setup only.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script without types, loaded only when a build is needed (see above)
  const { buildService } = require("../../scripts/build.js") as { buildService(options: { outdir: string; sourcemap: boolean }): Promise<string> };
  mkdirSync(CACHE, { recursive: true });
  for (const entry of readdirSync(CACHE)) {
    const pid = /^process-js(?:-(\d+))?$/.exec(entry);
    if (pid && !(pid[1] && running(Number(pid[1])))) rmSync(path.join(CACHE, entry), { recursive: true, force: true });
  }
  const out = path.join(CACHE, `process-js-${process.pid}`);
  mkdirSync(out, { recursive: true });
  await buildService({ outdir: path.join(out, "src"), sourcemap: false });
  for (const link of ["prisma", "dashboard", "package.json"]) {
    if (!existsSync(path.join(out, link))) symlinkSync(path.join(ROOT, link), path.join(out, link));
  }
  return out;
}
