// What is stored for the fuzz team and the other team: every table that leads to `teams` through foreign keys
// (found in the catalog, so new tables are covered without new code), as a hash of the rows per team plus the ids
// and unique keys of the rows, read with raw SQL in one statement.
import { prisma } from "../../src/db";

/**
 * Tables whose rows change on every authenticated request by design (usage counters, replayable answers), and the
 * webhook outbox: an event is written by every change, so the team's events grow with every write and reading them
 * around each request would cost more than the request (that no refused change records an event is tested in
 * test/webhooks.test.ts).
 */
const VOLATILE_TABLES = /^(_prisma_migrations|team_usage|api_key_hourly_usage|api_key_route_usage|webhook_events|webhook_deliveries)$|idempot/i;
/** Columns that change on every authenticated request by design (a key's last use: one statement writes all three). */
const VOLATILE_COLUMNS = ["last_used_at", "last_used_ip", "last_used_route"];

/** One foreign key: all its column pairs (a composite key such as (report_id, team_id) joins on both). */
interface ForeignKey {
  table: string;
  refTable: string;
  columns: string[];
  refColumns: string[];
}

export interface TableState {
  hash: string;
  /** Most recently changed first, when the table has updated_at or created_at. */
  ids: string[];
  keys: string[];
}

/** Per team id, per table. */
export type StoreState = Record<string, Record<string, TableState>>;

export class Store {
  private constructor(
    private readonly sql: string,
    readonly tables: string[],
    readonly unscoped: string[],
  ) {}

  static async open(): Promise<Store> {
    // pg_constraint pairs the columns of a composite key by position (information_schema would cross them).
    const fks = await prisma.$queryRawUnsafe<ForeignKey[]>(`
      select c.conrelid::regclass::text as "table", c.confrelid::regclass::text as "refTable",
        array_agg(a.attname::text order by k.n) as "columns", array_agg(af.attname::text order by k.n) as "refColumns"
      from pg_constraint c
      cross join lateral unnest(c.conkey, c.confkey) with ordinality as k(col, refcol, n)
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.col
      join pg_attribute af on af.attrelid = c.confrelid and af.attnum = k.refcol
      where c.contype = 'f' and c.connamespace = current_schema()::regnamespace
      group by c.oid, c.conrelid, c.confrelid order by c.conrelid::regclass::text, c.oid`);
    const columns = await prisma.$queryRawUnsafe<Array<{ table: string; column: string; type: string }>>(`
      select table_name as "table", column_name as "column", data_type as "type" from information_schema.columns
      where table_schema = current_schema()`);
    const tables = [...new Set(columns.map((c) => c.table))].sort();
    const colsOf = (t: string) => columns.filter((c) => c.table === t);

    // Shortest foreign-key path from each table to teams (breadth first from teams).
    const path = new Map<string, ForeignKey[]>([["teams", []]]);
    for (let changed = true; changed; ) {
      changed = false;
      for (const fk of fks) {
        if (!path.has(fk.table) && path.has(fk.refTable)) {
          path.set(fk.table, [fk, ...path.get(fk.refTable)!]);
          changed = true;
        }
      }
    }
    const scoped = tables.filter((t) => path.has(t) && !VOLATILE_TABLES.test(t));
    const unscoped = tables.filter((t) => !path.has(t) && !VOLATILE_TABLES.test(t));
    const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
    const parts = scoped.map((table) => {
      const chain = path.get(table)!;
      const joins = chain
        .map((fk, i) => `join ${q(fk.refTable)} t${i + 1} on ${fk.columns.map((c, j) => `t${i}.${q(c)} = t${i + 1}.${q(fk.refColumns[j])}`).join(" and ")}`)
        .join(" ");
      const team = chain.length ? `t${chain.length}.id` : "t0.id";
      const cols = colsOf(table);
      const id = cols.some((c) => c.column === "id") ? "t0.id::text" : "null::text";
      const keyCols = cols.filter((c) => /(^|_)key$/.test(c.column) && /char|text/.test(c.type)).map((c) => `t0.${q(c.column)}::text`);
      const key = keyCols.length ? `coalesce(${keyCols.join(", ")})` : "null::text";
      const recency = ["updated_at", "created_at"].find((c) => cols.some((x) => x.column === c));
      const order = recency ? ` order by s.r desc` : "";
      const r = recency ? `t0.${q(recency)}` : "null::timestamptz";
      const volatile = VOLATILE_COLUMNS.filter((c) => cols.some((x) => x.column === c));
      const row = volatile.length ? `(to_jsonb(t0) ${volatile.map((c) => `- '${c}'`).join(" ")})::text` : "t0::text";
      return `select '${table}' as tbl, s.team, count(*)::text || ':' || sum(hashtextextended(s.j, 0))::text as hash,
          coalesce(json_agg(s.id${order}) filter (where s.id is not null), '[]') as ids,
          coalesce(json_agg(s.k) filter (where s.k is not null), '[]') as keys
        from (select ${row} as j, ${id} as id, ${key} as k, ${r} as r, ${team}::text as team
              from ${q(table)} t0 ${joins} where ${team}::text = any($1::text[])) s
        group by s.team`;
    });
    return new Store(parts.join("\nunion all\n"), scoped, unscoped);
  }

  /** The stored state of the given teams. */
  async read(teamIds: string[]): Promise<StoreState> {
    const rows = await prisma.$queryRawUnsafe<Array<{ tbl: string; team: string; hash: string; ids: string[]; keys: string[] }>>(this.sql, teamIds);
    const state: StoreState = Object.fromEntries(teamIds.map((t) => [t, {}]));
    for (const r of rows) state[r.team][r.tbl] = { hash: r.hash, ids: r.ids, keys: r.keys };
    return state;
  }
}

/** The tables whose rows differ between two states of one team. */
export function changedTables(before: Record<string, TableState>, after: Record<string, TableState>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((t) => before[t]?.hash !== after[t]?.hash).sort();
}
