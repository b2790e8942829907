// Counts authenticated calls without a write per request: each team's calls per UTC calendar month, and each key's
// calls per UTC clock hour (the dashboard's usage chart). Increments are buffered in memory and flushed every few
// seconds (and at shutdown): one upsert per team, and one upsert statement for every buffered key and hour.
import { config } from "../config";
import { prisma } from "../db";
import { logger } from "../logger";

const pending = new Map<string, number>(); // `${teamId}|${monthStart ISO}` → calls not yet written
const pendingHours = new Map<string, number>(); // `${keyId}|${hourStart ISO}` → calls not yet written
let timer: NodeJS.Timeout | null = null;

export const monthStart = (now = new Date()): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
export const nextMonthStart = (now = new Date()): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

export const hourStart = (now = new Date()): Date => new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);

// The current hour's and month's names in the buffers, made again only when the hour changes.
let named = { hour: NaN, hourName: "", monthName: "" };
function namesOf(now: Date) {
  const hour = Math.floor(now.getTime() / 3_600_000);
  if (hour !== named.hour) named = { hour, hourName: hourStart(now).toISOString(), monthName: monthStart(now).toISOString() };
  return named;
}

/**
 * Counts an authenticated call of `keyId` (of team `teamId`): `calls` of them for a request that cost that many
 * rate-limit points (a GraphQL request with several root mutation fields), so usage counts what the limit counted;
 * -1 takes back the call of a request refused after it was counted.
 */
export function countCall(teamId: string, keyId: string, now = new Date(), calls = 1): void {
  const { hourName, monthName } = namesOf(now);
  const key = `${teamId}|${monthName}`;
  pending.set(key, (pending.get(key) ?? 0) + calls);
  const hour = `${keyId}|${hourName}`;
  pendingHours.set(hour, (pendingHours.get(hour) ?? 0) + calls);
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
  const hoursFailure = await writePendingHours();
  failure ??= hoursFailure;
  if (failure) throw failure;
}

/** Adds the buffered hourly counts of every key in one statement; returns the error when they stay buffered. */
async function writePendingHours(): Promise<unknown> {
  const batch = [...pendingHours.entries()];
  pendingHours.clear();
  if (batch.length === 0) return null;
  const keyIds = batch.map(([key]) => key.split("|")[0]);
  const hours = batch.map(([key]) => key.split("|")[1]);
  const counts = batch.map(([, calls]) => calls);
  try {
    // Through the api_keys row, like team_usage through teams: counts of a key deleted since are dropped.
    await prisma.$executeRaw`
      INSERT INTO api_key_hourly_usage (key_id, hour, count)
      SELECT k.id, b.hour, b.count
      FROM unnest(${keyIds}::uuid[], ${hours}::timestamptz[], ${counts}::int[]) AS b(key_id, hour, count)
      JOIN api_keys k ON k.id = b.key_id
      ON CONFLICT (key_id, hour) DO UPDATE SET count = api_key_hourly_usage.count + EXCLUDED.count`;
    return null;
  } catch (err) {
    for (const [key, calls] of batch) pendingHours.set(key, (pendingHours.get(key) ?? 0) + calls);
    return err;
  }
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

export interface HourlyCount {
  keyId: string;
  hour: Date;
  count: number;
}

/**
 * Calls per key and UTC clock hour of a team's keys from `since` (to `until`, excluded; hours without calls are left
 * out), oldest first: what is stored plus what this process has not written yet (read like callsThisMonth).
 */
export async function hourlyCounts(teamId: string, since: Date, until?: Date): Promise<HourlyCount[]> {
  const keys = new Set((await prisma.apiKey.findMany({ where: { teamId }, select: { id: true } })).map((k) => k.id));
  for (let attempt = 0; ; attempt++) {
    await flushing;
    const started = flushesStarted;
    const rows = await prisma.apiKeyHourlyUsage.findMany({
      where: { hour: { gte: since, ...(until ? { lt: until } : {}) }, apiKey: { teamId } },
      select: { keyId: true, hour: true, count: true },
      orderBy: [{ hour: "asc" }, { keyId: "asc" }],
    });
    // From this check on nothing awaits: a flush that takes counts out of pendingHours after the rows were read
    // (and before they are written) is seen here, and the rows read again. (The keys were read above: a flush that
    // started during that read took counts that neither the rows nor pendingHours held.)
    if (started !== flushesStarted && attempt < 4) continue;
    const counts = new Map(rows.map((r) => [`${r.keyId}|${r.hour.toISOString()}`, { ...r }]));
    for (const [key, calls] of pendingHours) {
      const [keyId, hour] = key.split("|");
      if (!keys.has(keyId) || new Date(hour) < since || (until && new Date(hour) >= until)) continue;
      const row = counts.get(key);
      if (row) row.count += calls;
      else counts.set(key, { keyId, hour: new Date(hour), count: calls });
    }
    return [...counts.values()].sort((a, b) => a.hour.getTime() - b.hour.getTime() || a.keyId.localeCompare(b.keyId));
  }
}
