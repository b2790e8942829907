// A team's data version: the team_versions row every change of the team's rows moves (its migrations' triggers).
// The HTTP cache's validators and the size estimate's stored text lengths both read it.
import { database } from "./index";
import type { Statement } from "./open";

/** The team's data version as a column of another statement (read in its snapshot); `$first` is the team's id. */
export const teamVersionColumn = (first: number): string => `(SELECT version::text FROM team_versions WHERE team_id = $${first}::uuid)`;

const VERSION: Statement = { name: "prs_team_version", text: `SELECT ${teamVersionColumn(1)} AS version` };

/** The team's data version (0 before its first tracked change: the column is then null). */
export async function teamVersion(teamId: string): Promise<string> {
  const rows = await database.query<{ version: string | null }>(VERSION, [teamId]);
  return rows[0]?.version ?? "0";
}
