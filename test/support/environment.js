// Jest's Node environment, with two things of our own. Plain JavaScript: Jest loads this file itself
// (jest.config.js testEnvironment), without a transform.
//
// 1. One embedded database per worker, emptied before each test file (fast tier, PGlite). Opening PGlite from the
//    migrated template (global-setup.ts) costs about a second of CPU in every file: its WebAssembly instantiated and
//    26 MB of data directory unpacked, again for each file's module registry. Here the worker opens it once, outside
//    the files' sandboxes, and each file starts on the same database with every table emptied and its sequences
//    started over (EMPTY_TABLES; the migration history kept): what each file sees is what a fresh database from the template shows.
//    test/support/env.ts hands it to the service in place of a new PGlite; a file's close() leaves it open.
//    (Committed first in a form that never took effect: env.ts ran before the database was set up; the first file to
//    touch it now empties it, and values crossing between realms are made the receiving realm's.)
// 2. After each test file a full garbage collection (`--expose-gc`, package.json) once the file's context is let
//    go of: left to V8, a worker held several files' apps after its last file; returning gigabytes to the system
//    outlasted the 500 ms Jest gives a worker to exit, and Jest warned that "a worker process has failed to exit
//    gracefully".
const { readFileSync } = require("node:fs");
const { TestEnvironment } = require("jest-environment-node");

/** The worker's database, opened on first use (a Promise of PGlite). */
let shared;

/**
 * Every table of the service's schema but the migration history, emptied (as the replication role, so neither the
 * foreign keys nor the audit log's append-only trigger stand in the way), and every sequence started over: what a
 * fresh database from the template holds. The tables holding rows are emptied with DELETE: a file writes a few dozen
 * rows into a few of the 25 tables, and TRUNCATE (which must take every table referencing teams along) costs PGlite
 * new files for each table and index — ~150 ms a file, against ~6 ms. Those tables are then vacuumed (VACUUM cannot
 * run in the same statement), which gives their emptied pages back: left as dead rows, a file seeding a thousand rows
 * slowed every later file of its worker.
 */
const EMPTY_TABLES = `SET session_replication_role = replica;
DO $$ DECLARE t text; written text[] := '{}'; holds boolean; BEGIN
  FOR t IN SELECT format('%I.%I', schemaname, tablename) FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' LOOP
    EXECUTE 'SELECT EXISTS (SELECT FROM ' || t || ')' INTO holds;
    IF holds THEN written := written || t; END IF;
  END LOOP;
  FOREACH t IN ARRAY written LOOP EXECUTE 'DELETE FROM ' || t; END LOOP;
  PERFORM set_config('prs.emptied', array_to_string(written, ', '), false);
  PERFORM setval(format('%I.%I', schemaname, sequencename), start_value, false) FROM pg_sequences
    WHERE schemaname = 'public' AND last_value IS NOT NULL;
END $$;
RESET session_replication_role`;

// PGlite 0.4 leaves PostgreSQL's idle-stats timer (up to 10 s) armed, after close() too (electric-sql/pglite#925; the
// fixed releases are outside what the prisma package's pins allow): it must not hold a Jest worker open after its
// last file (Jest then warns that "a worker process has failed to exit gracefully"), whether the PGlite is the
// worker's (opened here) or a file's own. One patch covers both: a test file's context reads Node's globals, this
// setTimeout among them, from this realm (jest-environment-node).
const setTimeoutOfNode = globalThis.setTimeout;
globalThis.setTimeout = Object.assign(function setTimeout(callback, ms, ...args) {
  const timer = setTimeoutOfNode(callback, ms, ...args);
  if (typeof callback === "function" && callback.toString().includes("__emscripten_timeout")) timer.unref();
  return timer;
}, setTimeoutOfNode);

// Jest ends a worker by letting its event loop run empty and gives it 500 ms to be gone. A worker that ran the
// service holds ~550 MB (its database, the module caches), and Node's own way out then sweeps and frees the whole V8
// heap before the system frees the memory: 400–500 ms on a busy 2-core machine (measured after the 'exit' event),
// so Jest force-exited some workers. Exiting from the 'exit' event leaves the memory to the system at once (~270 ms).
if (process.send) process.once("exit", (code) => process.exit(code));

function openShared(templateFile) {
  shared ??= (async () => {
    const { PGlite } = require("@electric-sql/pglite");
    const { pg_trgm } = require("@electric-sql/pglite/contrib/pg_trgm");
    const exitCode = process.exitCode;
    const pglite = new PGlite("memory://", { extensions: { pg_trgm }, loadDataDir: new Blob([readFileSync(templateFile)]) });
    await pglite.waitReady;
    // Opening PGlite 0.4 sets process.exitCode to 99 (its WebAssembly runtime's exit status; close() sets it back to
    // 0). The worker's database is never closed, so the worker ended with code 99, which Jest takes for a crash: it
    // started a new worker in its place and force-exited that one 500 ms later ("A worker process has failed to exit
    // gracefully"). The worker's exit code is its own again.
    process.exitCode = exitCode;
    return pglite;
  })();
  return shared;
}

/**
 * The worker's PGlite as one file sees it, from `ready` (the database, emptied for this file): each call waits for it
 * (the service constructs PGlite synchronously, before the database is open, as with a new PGlite); the file's
 * listeners are removed and it counts as closed once the file closes it (the database stays open for the next file).
 * `instanceof` is per realm: errors of the database are made instances of the file's own `DatabaseError` class (Prisma's
 * adapter tells a database error, e.g. a unique violation, from others by it), and dates and bytes are passed as the
 * receiving realm's, in transactions too.
 */
function forOneFile(ready, file) {
  const unlisteners = [];
  let closed = false;
  const outer = require("@electric-sql/pglite");
  const ownError = (err) => {
    if (err instanceof outer.messages.DatabaseError) Object.setPrototypeOf(err, file.DatabaseError.prototype);
    return err;
  };
  // Values cross between the file's realm and this one: PGlite tells a Date or bytes from other values by instanceof.
  const toDatabase = (v) =>
    Array.isArray(v) ? v.map(toDatabase) : v instanceof file.Date ? new Date(v.getTime()) : v instanceof file.Uint8Array ? Uint8Array.from(v) : v;
  const toFile = (v) =>
    Array.isArray(v) ? v.map(toFile) : v instanceof Date ? new file.Date(v.getTime()) : v instanceof Uint8Array && !Buffer.isBuffer(v) ? file.Uint8Array.from(v) : v;
  const rowsToFile = (result) => {
    if (!result || typeof result !== "object" || !Array.isArray(result.rows)) return result;
    const rows = result.rows.map((row) => (Array.isArray(row) ? row.map(toFile) : Object.fromEntries(Object.entries(row).map(([k, v]) => [k, toFile(v)]))));
    return { ...result, rows };
  };
  const call = async (target, prop, args) => {
    try {
      const sent = prop === "query" && Array.isArray(args[1]) ? [args[0], args[1].map(toDatabase), ...args.slice(2)] : args;
      const result = await target[prop](...sent);
      return prop === "query" ? rowsToFile(result) : prop === "exec" && Array.isArray(result) ? result.map(rowsToFile) : result;
    } catch (err) {
      throw ownError(err);
    }
  };
  /** A transaction's handle, its errors the file's own too. */
  const inTransaction = (tx) => new Proxy(tx, { get: (t, prop) => (typeof t[prop] === "function" ? (...args) => call(t, prop, args) : t[prop]) });
  const own = {
    waitReady: ready.then(() => undefined),
    async listen(channel, callback) {
      const unlisten = await (await ready).listen(channel, callback);
      unlisteners.push(unlisten);
      return unlisten;
    },
    async transaction(callback) {
      return call(await ready, "transaction", [(tx) => callback(inTransaction(tx))]);
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
  return new Proxy(own, {
    get(target, prop) {
      if (Object.prototype.hasOwnProperty.call(own, prop)) return own[prop];
      return async (...args) => {
        if (closed) throw new Error("PGlite is closed");
        return call(await ready, prop, args);
      };
    },
  });
}

class ServiceEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const sharesDatabase = !process.env.TEST_PGLITE_PER_FILE && config.projectConfig.displayName?.name === "fast" && !process.env.DATABASE_URL && Boolean(process.env.PGLITE_TEMPLATE);
    if (!sharesDatabase) return;
    // TEST_PGLITE_PER_FILE=1 opens one per file, as before (to tell a fault of the sharing from one of the code).
    // Set here, before the file's setup files run (test/support/env.ts reads it); emptied on the file's first use.
    let ready;
    this.global.__workerPglite = (file) =>
      forOneFile(
        (ready ??= openShared(process.env.PGLITE_TEMPLATE).then(async (pglite) => {
          await pglite.exec(EMPTY_TABLES);
          const [{ emptied }] = (await pglite.query("SELECT current_setting('prs.emptied') AS emptied")).rows;
          if (emptied) await pglite.exec(`VACUUM ${emptied}`);
          return pglite;
        })),
        file,
      );
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
