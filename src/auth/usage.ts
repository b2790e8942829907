// Counts authenticated calls without a write per request: each team's calls per UTC calendar month, each key's
// calls per UTC clock hour (the dashboard's usage chart), and each key's answers per hour, route template and outcome
// (the usage page's "by route"). Increments are buffered in memory and flushed every few seconds (and at shutdown):
// one upsert per team, and one upsert statement each for every buffered key and hour, and key, hour, route and outcome.
import { config } from "../config";
import { prisma } from "../db";
import { logger } from "../logger";

const pending = new Map<string, number>(); // `${teamId}|${monthStart ISO}` → calls not yet written
const pendingHours = new Map<string, number>(); // `${keyId}|${hourStart ISO}` → calls not yet written
const pendingRoutes = new Map<string, number>(); // `${keyId}|${hourStart ISO}|${outcome}|${route}` → answers not yet written
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

/** What an answer was, as the usage page counts it: below 400 (a 304 is one), 429, another 4xx, or 5xx. */
export type Outcome = "2xx" | "4xx" | "429" | "5xx";
export const OUTCOMES: readonly Outcome[] = ["2xx", "4xx", "429", "5xx"];
export const outcomeOf = (status: number): Outcome => (status === 429 ? "429" : status >= 500 ? "5xx" : status >= 400 ? "4xx" : "2xx");

/**
 * Counts an answer to a request made with key `keyId` (valid when it was presented): its route template (`GET
 * /v1/reports/{reportId}`, never a raw path) and its outcome. Refusals count too (a 429 is the key's).
 */
export function countAnswer(keyId: string, route: string, status: number, now = new Date()): void {
  const key = `${keyId}|${namesOf(now).hourName}|${outcomeOf(status)}|${route}`;
  pendingRoutes.set(key, (pendingRoutes.get(key) ?? 0) + 1);
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
  const routesFailure = await writePendingRoutes();
  failure ??= routesFailure;
  if (failure) throw failure;
}

/** Adds the buffered answers per key, hour, route and outcome in one statement; returns the error when they stay buffered. */
async function writePendingRoutes(): Promise<unknown> {
  const batch = [...pendingRoutes.entries()];
  pendingRoutes.clear();
  if (batch.length === 0) return null;
  const parts = batch.map(([key]) => splitRouteKey(key));
  try {
    // Through the api_keys row: answers of a key deleted since are dropped.
    await prisma.$executeRaw`
      INSERT INTO api_key_route_usage (key_id, hour, route, outcome, count)
      SELECT k.id, b.hour, b.route, b.outcome, b.count
      FROM unnest(${parts.map((p) => p.keyId)}::uuid[], ${parts.map((p) => p.hour)}::timestamptz[], ${parts.map((p) => p.route)}::text[],
        ${parts.map((p) => p.outcome)}::text[], ${batch.map(([, count]) => count)}::int[]) AS b(key_id, hour, route, outcome, count)
      JOIN api_keys k ON k.id = b.key_id
      ON CONFLICT (key_id, hour, route, outcome) DO UPDATE SET count = api_key_route_usage.count + EXCLUDED.count`;
    return null;
  } catch (err) {
    for (const [key, count] of batch) pendingRoutes.set(key, (pendingRoutes.get(key) ?? 0) + count);
    return err;
  }
}

/** A pendingRoutes key's parts (the route last: it may hold any character but a line break). */
function splitRouteKey(key: string): { keyId: string; hour: string; outcome: Outcome; route: string } {
  const [keyId, hour, outcome] = key.split("|", 3);
  return { keyId, hour, outcome: outcome as Outcome, route: key.slice(keyId.length + hour.length + outcome.length + 3) };
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

export interface RouteCount {
  keyId: string;
  route: string;
  outcome: Outcome;
  count: number;
}

/**
 * Answers per key, route template and outcome of a team's keys in the hours from `since` to `until` (excluded): what
 * is stored plus what this process has not written yet (read like hourlyCounts).
 */
export async function routeCounts(teamId: string, since: Date, until: Date): Promise<RouteCount[]> {
  const keys = new Set((await prisma.apiKey.findMany({ where: { teamId }, select: { id: true } })).map((k) => k.id));
  for (let attempt = 0; ; attempt++) {
    await flushing;
    const started = flushesStarted;
    const rows = await prisma.apiKeyRouteUsage.groupBy({
      by: ["keyId", "route", "outcome"],
      where: { hour: { gte: since, lt: until }, apiKey: { teamId } },
      _sum: { count: true },
    });
    if (started !== flushesStarted && attempt < 4) continue;
    const counts = new Map(rows.map((r) => [`${r.keyId}|${r.outcome}|${r.route}`, { keyId: r.keyId, route: r.route, outcome: r.outcome as Outcome, count: r._sum.count ?? 0 }]));
    for (const [key, count] of pendingRoutes) {
      const { keyId, hour, outcome, route } = splitRouteKey(key);
      if (!keys.has(keyId) || new Date(hour) < since || new Date(hour) >= until) continue;
      const name = `${keyId}|${outcome}|${route}`;
      const row = counts.get(name);
      if (row) row.count += count;
      else counts.set(name, { keyId, route, outcome, count });
    }
    return [...counts.values()].sort((a, b) => a.keyId.localeCompare(b.keyId) || a.route.localeCompare(b.route) || OUTCOMES.indexOf(a.outcome) - OUTCOMES.indexOf(b.outcome));
  }
}
