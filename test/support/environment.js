// Jest's Node environment, with two things of our own. Plain JavaScript: Jest loads this file itself
// (jest.config.js testEnvironment), without a transform.
//
// 1. One embedded database per worker, emptied before each test file (fast tier, PGlite). Opening PGlite from the
//    migrated template (global-setup.ts) costs about a second of CPU in every file: its WebAssembly instantiated and
//    26 MB of data directory unpacked, again for each file's module registry. Here the worker opens it once, outside
//    the files' sandboxes, and each file starts on the same database with every table emptied (TRUNCATE … RESTART
//    IDENTITY; the migration history kept): what each file sees is what a fresh database from the template shows.
//    test/support/env.ts hands it to the service in place of a new PGlite; a file's close() leaves it open.
// 2. After each test file a full garbage collection (`--expose-gc`, package.json) once the file's context is let
//    go of: left to V8, a worker held several files' apps after its last file; returning gigabytes to the system
//    outlasted the 500 ms Jest gives a worker to exit, and Jest warned that "a worker process has failed to exit
//    gracefully".
const { readFileSync } = require("node:fs");
const { TestEnvironment } = require("jest-environment-node");

/** The worker's database, opened on first use (a Promise of PGlite). */
let shared;

/**
 * Every table of the service's schema but the migration history, emptied in one statement (as the replication role,
 * so the audit log's append-only trigger lets it be emptied too).
 */
const EMPTY_TABLES = `SET session_replication_role = replica;
DO $$ BEGIN
  EXECUTE (SELECT 'TRUNCATE ' || string_agg(format('%I.%I', schemaname, tablename), ', ') || ' RESTART IDENTITY CASCADE'
           FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations');
END $$;
RESET session_replication_role`;

// PGlite 0.4 leaves PostgreSQL's idle-stats timer armed (electric-sql/pglite#925, see env.ts): the worker's database
// stays open until the worker exits, and that timer must not hold the worker open after its last file.
const setTimeoutOfNode = globalThis.setTimeout;
globalThis.setTimeout = Object.assign(function setTimeout(callback, ms, ...args) {
  const timer = setTimeoutOfNode(callback, ms, ...args);
  if (typeof callback === "function" && callback.toString().includes("__emscripten_timeout")) timer.unref();
  return timer;
}, setTimeoutOfNode);

function openShared(templateFile) {
  shared ??= (async () => {
    const { PGlite } = require("@electric-sql/pglite");
    const { pg_trgm } = require("@electric-sql/pglite/contrib/pg_trgm");
    const pglite = new PGlite("memory://", { extensions: { pg_trgm }, loadDataDir: new Blob([readFileSync(templateFile)]) });
    await pglite.waitReady;
    return pglite;
  })();
  return shared;
}

/**
 * The worker's PGlite as one file sees it: its listeners are removed and it counts as closed once the file closes it
 * (the database itself stays open for the next file).
 */
function forOneFile(pglite) {
  const unlisteners = [];
  let closed = false;
  const guard = () => {
    if (closed) throw new Error("PGlite is closed");
  };
  const own = {
    async listen(channel, callback) {
      guard();
      const unlisten = await pglite.listen(channel, callback);
      unlisteners.push(unlisten);
      return unlisten;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const unlisten of unlisteners.splice(0)) await unlisten();
    },
    get closed() {
      return closed;
    },
  };
  return new Proxy(pglite, {
    get(target, prop) {
      if (Object.prototype.hasOwnProperty.call(own, prop)) return own[prop];
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      return (...args) => {
        guard();
        return value.apply(target, args);
      };
    },
  });
}

class ServiceEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.sharesDatabase = config.projectConfig.displayName?.name === "fast" && !process.env.DATABASE_URL && Boolean(process.env.PGLITE_TEMPLATE);
  }

  async setup() {
    await super.setup();
    if (!this.sharesDatabase) return;
    const pglite = await openShared(process.env.PGLITE_TEMPLATE);
    await pglite.exec(EMPTY_TABLES);
    this.global.__workerPglite = () => forOneFile(pglite);
  }

  async teardown() {
    await super.teardown();
    // jest-environment-node lets go of the context but not of its global object, which reaches everything the file
    // made (its app, its database).
    this.global = null;
    globalThis.gc?.();
  }
}

module.exports = ServiceEnvironment;
module.exports.default = ServiceEnvironment;
