// "Nothing changed since the last clean run" for the *-if-stale scripts: a digest of a list of files and directories
// (each one's path, size and modification time, directories walked without node_modules), kept in
// node_modules/.cache/prs/<name>.inputs once a run passed. An edit, a new, renamed or deleted file (its directory's
// time changes) or a new install (package-lock.json, node_modules/.package-lock.json) makes it stale; a failing run
// leaves no digest, so it runs again next time.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..");
export const cacheDir = path.join(root, "node_modules", ".cache", "prs");

function digest(inputs) {
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

/**
 * Runs `run` (which answers an exit status) unless `inputs` are as they were after its last passing run under
 * `name`; exits with its status when it fails.
 */
export function unlessUnchanged(name, inputs, run) {
  const stampFile = path.join(cacheDir, `${name}.inputs`);
  const before = digest(inputs);
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === before) return;
  const status = run();
  if (status !== 0) process.exit(status ?? 1);
  // Only what the run saw: a file edited while it ran makes the next run check again.
  mkdirSync(cacheDir, { recursive: true });
  if (digest(inputs) === before) writeFileSync(stampFile, before);
}
