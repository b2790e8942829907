#!/usr/bin/env node
// `prisma generate` without Prisma's binary download host: generation does not need the native schema engine,
// but the CLI tries to download it first unless PRISMA_SCHEMA_ENGINE_BINARY names an existing file.
// Machines that set the variable themselves (or can download) keep the normal path.
const { spawnSync } = require("node:child_process");

const path = require("node:path");

const env = { ...process.env };
// The pothos generator is a bin of @pothos/plugin-prisma; npm scripts put it on PATH, a direct call may not.
env.PATH = [path.join(__dirname, "..", "node_modules", ".bin"), env.PATH].join(path.delimiter);
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = __filename;
const result = spawnSync(process.execPath, [require.resolve("prisma/build/index.js"), "generate", ...process.argv.slice(2)], {
  stdio: "inherit",
  env,
});
process.exit(result.status ?? 1);
