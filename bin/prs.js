#!/usr/bin/env node
// The installed `prs` command: the compiled CLI (dist/cli/prs.js, written by `npm install` / `npm run build`) when
// that build is newer than every source, else the TypeScript CLI through tsx's require hook (a checkout being edited).
const { DIST, isFresh } = require("../scripts/build.js");

if (isFresh(DIST)) {
  require("../dist/cli/prs.js");
} else {
  require("tsx/cjs/api").register();
  require("../src/cli/prs.ts");
}
