// Every test file starts on an empty, migrated database: in-memory PGlite (the fast tier shares one per Jest worker,
// emptied before each file: test/support/environment.js; the system tier opens one per file from the template made
// in global-setup), unless DATABASE_URL points the whole suite at PostgreSQL. Set before any module of the service is
// loaded.
import { statSync } from "node:fs";

process.env.PGLITE_DATA_DIR = "memory://";
process.env.SQL_STATEMENT_EVENTS = "true";
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? "silent";
process.env.USAGE_FLUSH_MS = process.env.USAGE_FLUSH_MS ?? "200";

// PGlite 0.4 leaves PostgreSQL's idle-stats timer (up to 10 s) armed after close() (electric-sql/pglite#925; the
// fixed releases are outside what the prisma package's pins allow). Once closed, the runtime ignores it when it
// fires, but it would hold the Jest worker open after its last test file, and Jest then warns that "a worker
// process has failed to exit gracefully". That one timer (PGlite loads in this context) must not hold the process.
const setTimeoutOfNode = globalThis.setTimeout;
globalThis.setTimeout = Object.assign(function setTimeout(callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) {
  const timer = setTimeoutOfNode(callback, ms, ...args);
  if (typeof callback === "function" && callback.toString().includes("__emscripten_timeout")) timer.unref();
  return timer;
}, setTimeoutOfNode) as typeof globalThis.setTimeout;

// Fast tier, PGlite: the worker's database (test/support/environment.js) stands in for the new in-memory PGlite the
// service opens from the migrated template; any other PGlite is opened as usual.
const workerPglite = (globalThis as { __workerPglite?: (file: { DatabaseError: unknown; Date: DateConstructor; Uint8Array: Uint8ArrayConstructor }) => object }).__workerPglite;
if (workerPglite) {
  const templateSize = statSync(process.env.PGLITE_TEMPLATE!).size;
  jest.mock("@electric-sql/pglite", () => {
    const actual = jest.requireActual("@electric-sql/pglite");
    const PGlite = new Proxy(actual.PGlite, {
      construct(target, args: [string?, { loadDataDir?: Blob }?], newTarget) {
        const [dataDir, options] = args;
        if (dataDir === "memory://" && options?.loadDataDir?.size === templateSize) return workerPglite({ DatabaseError: actual.messages.DatabaseError, Date, Uint8Array });
        return Reflect.construct(target, args, newTarget);
      },
    });
    return { ...actual, PGlite };
  });
}
