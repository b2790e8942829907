// Counts each team's authenticated calls per UTC calendar month without a write per request: increments are
// buffered in memory and flushed every few seconds (and at shutdown) as one upsert per team.
import { config } from "../config";
import { prisma } from "../db";

const pending = new Map<string, number>(); // `${teamId}|${monthStart ISO}` → calls not yet written
let timer: NodeJS.Timeout | null = null;

export const monthStart = (now = new Date()): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
export const nextMonthStart = (now = new Date()): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

export function countCall(teamId: string, now = new Date()): void {
  const key = `${teamId}|${monthStart(now).toISOString()}`;
  pending.set(key, (pending.get(key) ?? 0) + 1);
  if (!timer) {
    timer = setTimeout(() => void flushUsage().catch(() => undefined), config.USAGE_FLUSH_MS);
    timer.unref();
  }
}

/** Writes the buffered counts. Counts that fail to write are kept for the next flush. */
export async function flushUsage(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = null;
  const batch = [...pending.entries()];
  pending.clear();
  for (const [key, calls] of batch) {
    const [teamId, month] = key.split("|");
    try {
      await prisma.$executeRaw`
        INSERT INTO team_usage (team_id, month, calls) VALUES (${teamId}::uuid, ${month}::date, ${calls})
        ON CONFLICT (team_id, month) DO UPDATE SET calls = team_usage.calls + EXCLUDED.calls`;
    } catch (err) {
      pending.set(key, (pending.get(key) ?? 0) + calls);
      throw err;
    }
  }
}

/** This month's calls of a team: what is stored plus what this process has not written yet. */
export async function callsThisMonth(teamId: string, now = new Date()): Promise<number> {
  const month = monthStart(now);
  const row = await prisma.teamUsage.findUnique({ where: { teamId_month: { teamId, month } }, select: { calls: true } });
  return (row?.calls ?? 0) + (pending.get(`${teamId}|${month.toISOString()}`) ?? 0);
}
