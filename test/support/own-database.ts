// A PostgreSQL database of a test file's own, beside the suite's DATABASE_URL (none on PGlite, where every file has
// its own database anyway). For a file whose data must not reach the others' processes: the fuzz creates webhook
// endpoints with random URLs, and every delivering process on a database claims every team's deliveries.
import pg from "pg";

export interface OwnDatabase {
  url: string;
  /**
   * The settings of a process on it: DATABASE_URL, DATABASE_DIRECT_URL when the suite has one (a pooler pass), and
   * DATABASE_REPLICA_URLS when the suite has replicas (the same database name on each: a streaming replica replays
   * the CREATE DATABASE).
   */
  env: { DATABASE_URL: string; DATABASE_DIRECT_URL?: string; DATABASE_REPLICA_URLS?: string };
  create(): Promise<void>;
  drop(): Promise<void>;
}

/** The same server and credentials as `url`, another database. */
const withDatabase = (url: string, name: string): string => Object.assign(new URL(url), { pathname: `/${name}` }).toString();

/**
 * Names a database `<suite database>_<label>_<pid>` (created by `create()`), or null without DATABASE_URL. Behind a
 * pooler (DATABASE_DIRECT_URL set) it is created and dropped on PostgreSQL directly; the pooler must serve any
 * database name (PgBouncer: a `*` entry).
 */
export function ownDatabase(label: string): OwnDatabase | null {
  const base = process.env.DATABASE_URL;
  if (!base) return null;
  const direct = process.env.DATABASE_DIRECT_URL;
  const replicas = process.env.DATABASE_REPLICA_URLS;
  const name = `${new URL(base).pathname.slice(1)}_${label}_${process.pid}`;
  const url = withDatabase(base, name);
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: direct ?? base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    url,
    env: {
      DATABASE_URL: url,
      ...(direct ? { DATABASE_DIRECT_URL: withDatabase(direct, name) } : {}),
      ...(replicas ? { DATABASE_REPLICA_URLS: replicas.split(",").map((r) => withDatabase(r.trim(), name)).join(",") } : {}),
    },
    create: () => admin(`CREATE DATABASE "${name}"`),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/**
 * For a file whose server processes deliver webhooks: on PostgreSQL, a database of the file's own for the whole file
 * (created before its tests, dropped after), whose settings are returned to spread into the processes' environment;
 * nothing on PGlite. A delivering process claims every team's due attempts on its database: on the suite's it sent
 * other files' deliveries, out of their order and before their Redeliver. The drop is an afterAll declared now, so
 * it runs before the afterAll hooks declared after this call (Jest runs them in order): stop servers in afterEach or
 * in the test, or use ownDatabase() and drop after stopping them.
 */
export function ownDatabaseForFile(label: string): OwnDatabase["env"] | Record<string, never> {
  const own = ownDatabase(label);
  if (!own) return {};
  beforeAll(() => own.create());
  afterAll(() => own.drop());
  return own.env;
}
