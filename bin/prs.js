#!/usr/bin/env node
// The installed `prs` command: runs the TypeScript CLI (src/cli/prs.ts) through tsx's require hook, no build step.
require("tsx/cjs/api").register();
require("../src/cli/prs.ts");
