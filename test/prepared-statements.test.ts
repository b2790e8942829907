// Named (prepared) statements on a direct PostgreSQL connection with no setting: the service's hot paths — the key
// lookup and the one-statement report reads — are parsed and planned once per connection, then run by name.
// PostgreSQL only (on PGlite nothing is named). Set before the service's modules load: the suite's database reached
// directly (CI's PostgreSQL pass sends DATABASE_URL through PgBouncer), one connection (so PostgreSQL's view of it,
// pg_prepared_statements, shows every statement the service prepared), and DATABASE_PREPARED_STATEMENTS unset.
const direct = process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL;
if (direct) process.env.DATABASE_URL = direct;
delete process.env.DATABASE_DIRECT_URL;
delete process.env.DATABASE_PREPARED_STATEMENTS;
process.env.DATABASE_POOL_SIZE = "1";

import request from "supertest";
import { database } from "../src/db";
import { createTeam, startTestApp, type TestApp } from "./support/app";

interface Prepared {
  name: string;
  statement: string;
  /** Executions: each one uses either a custom or the generic plan. */
  runs: number;
}

(direct ? describe : describe.skip)("prepared statements on a direct connection, no setting", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const prepared = () =>
    database.query<Prepared>({ text: "SELECT name, statement, (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements" }, []);

  it("prepares the key lookup and the report detail's statement once, and runs them again by name", async () => {
    const team = await createTeam();
    const created = await request(t.app).post("/v1/reports").set(team.auth).send({ address: "1 Prepared Way", price: 250_000 });
    expect(created.status).toBe(201);
    const id = (created.body as { data: { id: string } }).data.id;
    for (let i = 0; i < 4; i++) {
      const detail = await request(t.app).get(`/v1/reports/${id}`).set(team.auth);
      expect({ status: detail.status, address: (detail.body as { data?: { address?: string } }).data?.address }).toEqual({ status: 200, address: "1 Prepared Way" });
    }
    const statements = await prepared();
    // The key lookup: named once (each name once on a connection is PostgreSQL's own rule).
    expect(statements.filter((s) => s.name.startsWith("prs_find_api_keys_")).map((s) => s.statement)).toEqual([
      expect.stringContaining("FROM api_keys"),
    ]);
    // The detail: one statement that builds the report's JSON, run by name for the later requests.
    const reads = statements.filter((s) => s.name.startsWith("sqljson_") && /FROM "?reports"?/.test(s.statement));
    expect(reads.length).toBeGreaterThan(0);
    expect(Math.max(...reads.map((s) => s.runs))).toBeGreaterThanOrEqual(2);
  });
});
