// The longest text a team holds in each long text field, in bytes of UTF-8. The size estimate (./limits.ts) prices
// such a field at this instead of its bound (docs/api.md "GraphQL limits"): a page of reports with their insights is
// as large as what the team wrote, not 20,000 characters an insight — while a team that did store long texts is
// priced by them, so repeating one through aliases and back-references is refused before it runs.
import { LRUCache } from "lru-cache";
import { database } from "../db";
import type { Statement } from "../db/open";
import { teamVersion } from "../db/team-version";

/** Each long text field ("Type.field": a bound of 20,000 characters) and the column holding it. */
const LONG_FIELDS = [
  ["Report.description", "reports", "description"],
  ["Report.executiveSummary", "reports", "executive_summary"],
  ["Showing.feedback", "showings", "feedback"],
  ["AgentInsight.body", "agent_insights", "body"],
] as const;

const STORED: Statement = {
  name: "prs_stored_lengths",
  text: `SELECT ${LONG_FIELDS.map(
    ([field, table, column]) => `(SELECT coalesce(max(octet_length(${column})), 0) FROM ${table} WHERE team_id = $1::uuid) AS "${field}"`,
  ).join(", ")}`,
};

/**
 * Each team's figures with the data version they were read at: every change of a team's rows moves its version
 * (team_versions, the HTTP cache's validator), so figures of an older version are read again — a text stored a moment
 * ago is priced at once, on every process.
 */
const cache = new LRUCache<string, { version: string; lengths: Promise<ReadonlyMap<string, number>> }>({ max: 10_000 });

/** The longest stored value of each long text field of a team ("Type.field" → bytes). */
export async function storedLengths(teamId: string): Promise<ReadonlyMap<string, number>> {
  const version = await teamVersion(teamId);
  const known = cache.get(teamId);
  if (known?.version === version) return known.lengths;
  const lengths = database
    .query<Record<string, number | string>>(STORED, [teamId])
    .then(([row]) => new Map(LONG_FIELDS.map(([field]) => [field, Number(row?.[field] ?? 0)])));
  lengths.catch(() => cache.delete(teamId));
  cache.set(teamId, { version, lengths });
  return lengths;
}
