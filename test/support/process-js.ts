// The service compiled to plain JavaScript for the processes the tests start (servers, the CLI), once per test run
// in the global setup. Started with tsx's require hook instead, each process spent about a second of CPU in tsx
// (resolving every require through its hooks, reading its transform cache) before the service's own start; the
// suite starts about thirty.
//
// The same build as `npm run build` (scripts/build.js), laid out as in the repository under
// node_modules/.cache/prs/process-js, beside links to what the service finds relative to its own files
// (prisma/migrations, dashboard/dist, package.json), so src/server.ts runs as <dir>/src/server.js exactly as it does
// from the sources (packages resolve from the repository's node_modules, an ancestor of the directory).
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
export const PROCESS_JS_DIR = path.join(ROOT, "node_modules", ".cache", "prs", "process-js");

/** Compiles src/ into PROCESS_JS_DIR/src with `npm run build`'s own function, and returns PROCESS_JS_DIR. */
export async function buildProcessJs(): Promise<string> {
  // A CommonJS script of the repository (scripts/build.js), loaded here: it needs esbuild, for the global setup only.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { buildService } = require("../../scripts/build.js") as { buildService(options: { outdir: string; sourcemap: boolean }): Promise<string> };
  const out = PROCESS_JS_DIR;
  mkdirSync(out, { recursive: true });
  await buildService({ outdir: path.join(out, "src"), sourcemap: false });
  for (const link of ["prisma", "dashboard", "package.json"]) {
    if (!existsSync(path.join(out, link))) symlinkSync(path.join(ROOT, link), path.join(out, link));
  }
  return out;
}
