// Every test file starts on an empty, migrated database: in-memory PGlite (the fast tier shares one per Jest worker,
// emptied before each file: test/support/environment.js; the system tier opens one per file from the template made
// in global-setup), unless DATABASE_URL points the whole suite at PostgreSQL. Set before any module of the service is
// loaded.
import { statSync } from "node:fs";

process.env.PGLITE_DATA_DIR = "memory://";
process.env.SQL_STATEMENT_EVENTS = "true";
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? "silent";
process.env.USAGE_FLUSH_MS = process.env.USAGE_FLUSH_MS ?? "200";

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
