/** Jest: TypeScript through ts-jest (transpile only; `npm test` type-checks with tsc first). */

// Two tiers of one suite, both on the real stack.
// - fast (`npm test`): the unit tests and every test that runs the service in the test's own process (supertest over
//   the Express app, an in-memory PGlite that each Jest worker opens once and empties before each file): the loop a
//   developer runs after each change.
// - system (`npm run test:system`): tests that start real server and CLI processes, stop or kill them, drive
//   Chromium, apply the migrations to fresh databases, send ten thousand requests, or fuzz every route.
// CI runs the fast tier on PGlite and both tiers on PostgreSQL (.ci/run); `npm run test:all` runs both here.
const SYSTEM = [
  "browser",
  "dashboard",
  "share-page",
  "sign-in-page",
  "dashboard-admin",
  "dashboard-report",
  "example-front-end",
  "cli",
  "server-process",
  "robustness-stop",
  "robustness-keys",
  "robustness-database",
  "webhooks-crash",
  "multiprocess",
  "http-cache-multiprocess",
  "subscriptions-multiprocess",
  "websocket-multiprocess",
  // Apollo Client's GraphQLWsLink in Chromium (bundled by esbuild), against the app's WebSocket transport.
  "websocket-browser",
  // A hundred live streams of ~580 KB an event on one report, another team's requests timed beside them.
  "subscriptions-load",
  "pooler",
  "cluster",
  "metrics",
  "traces",
  "migrations",
  "graphql-memory",
  // Three requests for hundreds of MiB of long text at once, /health and another team timed beside them.
  "response-size-load",
  // Every field path of the one-statement read against the resolvers, generated from the schema: ~30 s.
  "sql-json-differential",
  // Stress and timing: every write route raced against its report's delete, 6 trials each (~15 s); hanging webhook
  // receivers holding every delivery slot, timed against a 1 s attempt timeout.
  "races",
  "webhooks-fairness",
  "fuzz/fuzz",
  // The fuzz suite's WebSocket pass: 2,000 cases of protocol frames in any order with CI=true (~100 s).
  "fuzz/websocket",
  // A primary and a streaming replica of its own (initdb, pg_basebackup): read-your-writes across two processes.
  "read-replicas",
].map((name) => `<rootDir>/test/${name}.test.ts`);

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
    { ...project, displayName: "fast", testMatch: ["<rootDir>/test/**/*.test.ts"], testPathIgnorePatterns: SYSTEM.map((file) => file.replace("<rootDir>", "").replaceAll(".", "\\.") + "$") },
    { ...project, displayName: "system", testMatch: SYSTEM },
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
