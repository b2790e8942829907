/** Jest: TypeScript through ts-jest (transpile only; `npm test` type-checks with tsc first). */

// Two tiers of one suite, both on the real stack, chosen by folder.
// - fast (`npm test`): the unit tests and every test that runs the service in the test's own process (supertest over
//   the Express app, an in-memory PGlite that each Jest worker opens once and empties before each file): the loop a
//   developer runs after each change. It touches every route and capability at least once.
// - system (`npm run test:system`, the files in test/system/): tests that start real server and CLI processes, stop
//   or kill them, drive Chromium, apply the migrations to fresh databases, run PgBouncer, Prometheus or a streaming
//   replica of their own, send thousands of requests, race writes, or fuzz every route (test/system/README.md).
// CI runs the fast tier on PGlite and both tiers on PostgreSQL (.ci/run); `npm run test:all` runs both here.
const project = {
  testEnvironment: "<rootDir>/test/support/environment.js",
  roots: ["<rootDir>/test"],
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
  // The generated Prisma client imports its siblings as ./x.js (TypeScript's NodeNext style).
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  setupFiles: ["<rootDir>/test/support/env.ts"],
  // jest-runtime with V8's code cache for the modules it compiles (test/support/runtime.js).
  runtime: "<rootDir>/test/support/runtime.js",
};

module.exports = {
  projects: [
    { ...project, displayName: "fast", testMatch: ["<rootDir>/test/**/*.test.ts"], testPathIgnorePatterns: ["<rootDir>/test/system/"] },
    { ...project, displayName: "system", testMatch: ["<rootDir>/test/system/**/*.test.ts"] },
  ],
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  testTimeout: 60000,
  maxWorkers: 2,
  // Node 24 keeps every finished test file's context alive (a heap snapshot shows them held through a V8 function
  // template's cache), and with it the file's embedded database: a worker grew ~230 MB a file, to 3–4 GB, and could
  // not exit within Jest's 500 ms. Jest replaces a worker whose heap is past this after a file. On Node 20, which
  // lets them go (test/support/runtime.js, environment.js), a worker's heap stays between 150 and 360 MB: under
  // 400 MB two workers were replaced in a run, at 3–4 s each (a new process, its database, its caches).
  workerIdleMemoryLimit: "800MB",
};
