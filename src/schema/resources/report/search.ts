// Address search (docs/api.md "Address search"): the team's report that best matches an address.
import { prisma } from "../../../db";
import { normalizeAddress } from "../../address";

/**
 * The best match for an address: exact, then prefix, then containment; newest update breaks ties.
 * search_key ("address city state zip") starts with address_key, so one trigram-indexed LIKE on it finds every
 * candidate; address_key only ranks.
 */
export async function findReportIdByAddress(teamId: string, input: string): Promise<string | null> {
  const key = normalizeAddress(input);
  if (!key) return null;
  const pattern = `%${key}%`;
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    SELECT id FROM reports
    WHERE team_id = ${teamId}::uuid AND search_key LIKE ${pattern}
    ORDER BY (address_key = ${key} OR search_key = ${key}) DESC,
             (address_key LIKE ${`${key}%`} OR search_key LIKE ${`${key}%`}) DESC,
             updated_at DESC
    LIMIT 1`;
  return rows[0]?.id ?? null;
}
