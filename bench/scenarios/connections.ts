// Scenario 12: a page deep in a team of 100k reports (10k in --quick), read as a keyset page of reportsConnection
// (`after` a cursor) and as an offset page of reports (`offset`), with the connection's first page beside them: a
// keyset page costs about what the first page costs wherever it is, an offset page reads and drops every row before
// it. Same selection on every side (no totalCount: counting a team's rows costs the same on both and is not paging).
import { cursorPrefix, encodeCursor } from "../../src/schema/cursor";
import { bearer, call, cycle } from "../http";
import { compareMany, type Side } from "../load";
import type { ScenarioContext, ScenarioResult } from "./types";

const PAGE = 50;
const FIELDS = "id address price status createdAt";
const KEYSET = `query($after: String) { reportsConnection(first: ${PAGE}, after: $after) { edges { cursor node { ${FIELDS} } } pageInfo { hasNextPage endCursor } } }`;
const OFFSET = `query($offset: Int!) { reports(limit: ${PAGE}, offset: $offset) { items { ${FIELDS} } } }`;

interface Item {
  id: string;
  createdAt: string;
}

export async function connectionPages({ seed, ports, plan }: ScenarioContext): Promise<ScenarioResult> {
  const team = seed.large;
  const n = plan.largeTeamReports;
  const notes: string[] = [];
  const post = (query: string, variables: Record<string, unknown>) => call(ports.stack, "/graphql", { method: "POST", key: team.key, body: { query, variables } });
  // Ten positions in the last tenth of the list; the cursor of each is that of the row just before it.
  const offsets = Array.from({ length: 10 }, (_, i) => Math.floor(n * (0.9 + i * 0.0099)));
  const cursors: string[] = [];
  let same = true;
  for (const offset of offsets) {
    const before = (await post(OFFSET.replace(`limit: ${PAGE}`, "limit: 1"), { offset: offset - 1 })).json() as { data: { reports: { items: Item[] } } };
    const row = before.data.reports.items[0];
    const after = encodeCursor(cursorPrefix("reports", team.teamId), { createdAt: new Date(row.createdAt), id: row.id });
    cursors.push(after);
    // The harness's check: both sides answer the same rows.
    const keyset = (await post(KEYSET, { after })).json() as { data: { reportsConnection: { edges: Array<{ node: Item }> } } };
    const paged = (await post(OFFSET, { offset })).json() as { data: { reports: { items: Item[] } } };
    const a = keyset.data.reportsConnection.edges.map((e) => e.node.id);
    const b = paged.data.reports.items.map((i) => i.id);
    if (a.length !== PAGE || a.join() !== b.join()) same = false;
  }
  if (!same) notes.push("the keyset and offset pages DIFFER");
  const nextCursor = cycle(cursors);
  const nextOffset = cycle(offsets);
  const graphql = (query: string, variables: () => Record<string, unknown>): Side["target"] => ({
    port: ports.stack,
    method: "POST",
    headers: { ...bearer(team.key), "content-type": "application/json" },
    next: () => ({ path: "/graphql", body: { query, variables: variables() } }),
  });
  const depth = `${Math.round(offsets[0] / 1000)}k–${Math.round(offsets.at(-1)! / 1000)}k`;
  const c = await compareMany(
    [
      { name: `reportsConnection(first: ${PAGE}, after) at ${depth}`, target: graphql(KEYSET, () => ({ after: nextCursor() })) },
      { name: `reports(limit: ${PAGE}, offset) at ${depth}`, target: graphql(OFFSET, () => ({ offset: nextOffset() })) },
      { name: `reportsConnection(first: ${PAGE}), the first page`, target: graphql(KEYSET, () => ({ after: null })) },
    ],
    plan,
    "rps",
  );
  const [vsOffset, vsFirst] = c.ratios.map((r) => Math.round(r.ratio * 100) / 100);
  const errors = c.sides.reduce((sum, s) => sum + s.errors, 0);
  notes.push(`${PAGE} reports a page, 5 fields each; ${offsets.length} positions cycled; keyset ${vsOffset}× offset, ${vsFirst}× its own first page`);
  return {
    id: 12,
    title: `Deep page of ${n / 1000}k reports: keyset (reportsConnection) vs offset (reports)`,
    target: "keyset ≥ 0.80× its first page; > 1× offset",
    measured: `${vsFirst}× first page / ${vsOffset}× offset`,
    pass: same && errors === 0 && vsFirst >= 0.8 && vsOffset > 1,
    rows: c.sides.map((s) => ({ label: s.name, rps: s.rps, p50: s.p50, p99: s.p99, errors: s.errors })),
    notes,
  };
}
