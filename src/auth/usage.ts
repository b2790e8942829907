// Counts each team's authenticated calls per UTC calendar month without a write per request: increments are
// buffered in memory and flushed every few seconds (and at shutdown) as one upsert per team.
import { config } from "../config";
import { prisma } from "../db";
import { logger } from "../logger";

const pending = new Map<string, number>(); // `${teamId}|${monthStart ISO}` → calls not yet written
let timer: NodeJS.Timeout | null = null;

export const monthStart = (now = new Date()): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
export const nextMonthStart = (now = new Date()): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

export function countCall(teamId: string, now = new Date()): void {
  const key = `${teamId}|${monthStart(now).toISOString()}`;
  pending.set(key, (pending.get(key) ?? 0) + 1);
  scheduleFlush();
}

function scheduleFlush(): void {
  if (timer) return;
  timer = setTimeout(() => {
    void flushUsage().catch((err) => {
      logger.warn({ err }, "usage counts not written; retrying");
      scheduleFlush();
    });
  }, config.USAGE_FLUSH_MS);
  timer.unref();
}

let flushing: Promise<void> = Promise.resolve();
let flushesStarted = 0;

/**
 * Writes the buffered counts. Flushes run one after another, so awaiting this at shutdown also waits for a
 * timer-started flush still writing. Counts that fail to write are kept for the next flush.
 */
export function flushUsage(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = null;
  flushesStarted++;
  const next = flushing.then(writePending);
  flushing = next.catch(() => undefined);
  return next;
}

async function writePending(): Promise<void> {
  const batch = [...pending.entries()];
  pending.clear();
  let failure: unknown = null;
  for (const [key, calls] of batch) {
    const [teamId, month] = key.split("|");
    try {
      // Through the teams row: the counts of a team deleted since its calls are dropped, not retried for ever.
      await prisma.$executeRaw`
        INSERT INTO team_usage (team_id, month, calls) SELECT id, ${month}::date, ${calls}::int FROM teams WHERE id = ${teamId}::uuid
        ON CONFLICT (team_id, month) DO UPDATE SET calls = team_usage.calls + EXCLUDED.calls`;
    } catch (err) {
      pending.set(key, (pending.get(key) ?? 0) + calls);
      failure ??= err;
    }
  }
  if (failure) throw failure;
}

/** This month's calls of a team: what is stored plus what this process has not written yet. */
export async function callsThisMonth(teamId: string, now = new Date()): Promise<number> {
  const month = monthStart(now);
  for (let attempt = 0; ; attempt++) {
    // A flush takes its counts out of `pending` before writing them: wait for one under way, and read again if
    // one started during the read, so no count is missed or counted twice.
    await flushing;
    const started = flushesStarted;
    const row = await prisma.teamUsage.findUnique({ where: { teamId_month: { teamId, month } }, select: { calls: true } });
    if (started === flushesStarted || attempt === 2) return (row?.calls ?? 0) + (pending.get(`${teamId}|${month.toISOString()}`) ?? 0);
  }
}
