// A PostgreSQL database of a test file's own, beside the suite's DATABASE_URL (none on PGlite, where every file has
// its own database anyway). For a file whose data must not reach the others' processes: the fuzz creates webhook
// endpoints with random URLs, and every delivering process on a database claims every team's deliveries.
import pg from "pg";

export interface OwnDatabase {
  url: string;
  create(): Promise<void>;
  drop(): Promise<void>;
}

/** Names a database `<suite database>_<label>_<pid>` (created by `create()`), or null without DATABASE_URL. */
export function ownDatabase(label: string): OwnDatabase | null {
  const base = process.env.DATABASE_URL;
  if (!base) return null;
  const url = new URL(base);
  const name = `${url.pathname.slice(1)}_${label}_${process.pid}`;
  url.pathname = `/${name}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    url: url.toString(),
    create: () => admin(`CREATE DATABASE "${name}"`),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
