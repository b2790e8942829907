#!/usr/bin/env node
// Lints the repository (`npm run lint`: ESLint over everything eslint.config.mjs does not ignore) unless no file it
// reads changed since its last clean run (./stale.mjs): `npm test` runs it, and with nothing changed it costs a walk
// of the source directories instead of loading ESLint and typescript-eslint (several seconds). When something did
// change, ESLint's own cache (by content, in node_modules/.cache/prs) lints only the files that changed.
//   node scripts/lint-if-stale.mjs
import { spawnSync } from "node:child_process";
import path from "node:path";
import { cacheDir, root, unlessUnchanged } from "./stale.mjs";

const INPUTS = ["src", "test", "bench", "scripts", "prisma", "bin", "dashboard/src", "dashboard/vite.config.mts", "examples/front-end/src", "examples/front-end/vite.config.mts", "examples/front-end/codegen.ts", "eslint.config.mjs", "ARCHITECTURE.md", "jest.config.js", "prisma.config.ts"];
const eslint = path.join(root, "node_modules", "eslint", "bin", "eslint.js");
const cache = ["--cache", "--cache-strategy", "content", "--cache-location", path.join(cacheDir, "eslint")];
unlessUnchanged("eslint", INPUTS, () => spawnSync(process.execPath, [eslint, ".", ...cache], { cwd: root, stdio: "inherit" }).status);
