// The team's usage per key and period (docs/api.md "Usage export"): the hourly counts the auth
// step makes for every call it lets through (src/auth/usage.ts — the same points the rate limiter and the monthly
// counter take), summed per UTC hour or day; and each key's answers per route template and outcome over a range
// (usageByRoute). REST's GET /v1/usage and GET /v1/usage/routes answer them as JSON or CSV.
import { hourlyCounts, routeCounts, type Outcome } from "../../auth/usage";
import type { Context } from "../../context";
import { prisma } from "../../db";
import { builder } from "../builder";
import { badInput } from "../errors";
import { teamIdOf } from "../scope";
import { needs } from "../needs";
import { valueObject, type ValueFields } from "../value-object";

const DAY_MS = 86_400_000;
/** The longest range one export covers, and the range when none is given (ending now). */
export const MAX_USAGE_DAYS = 90;
const DEFAULT_DAYS = 7;

type Granularity = "HOUR" | "DAY";
const GranularityRef = builder.enumType("UsageGranularity", {
  description: "The length of each period of a usage export.",
  values: { HOUR: { value: "HOUR" as Granularity, description: "UTC clock hours" }, DAY: { value: "DAY" as Granularity, description: "UTC days" } },
});

interface KeyOfRow {
  keyId: string;
  keyName: string;
  keyPrefix: string;
}

interface UsageRow extends KeyOfRow {
  periodStart: Date;
  requests: number;
}

/** The key a row of either export counts. */
const KEY_FIELDS = {
  keyId: ["ID", "The key's id"],
  keyName: ["String", "The key's name"],
  keyPrefix: ["String", "The key's display prefix"],
} as const satisfies ValueFields<KeyOfRow>;

const UsageRowRef = valueObject<UsageRow>("UsagePeriod", "Requests of one key in one period.", {
  ...KEY_FIELDS,
  periodStart: ["DateTime", "The first instant of the period (UTC)"],
  requests: ["Int", "Requests of the key in the period, as the rate limiter counted them"],
});

/** The range asked for, or the last 7 days; refused (400 naming the argument) when reversed or longer than 90 days. */
function rangeOf(from: Date | null | undefined, to: Date | null | undefined): { from: Date; to: Date } {
  const end = to ?? new Date();
  const start = from ?? new Date(end.getTime() - DEFAULT_DAYS * DAY_MS);
  if (start >= end) throw badInput(from && to ? "from must be before to" : from ? "from must be in the past (or give to)" : "to must be after from");
  if (end.getTime() - start.getTime() > MAX_USAGE_DAYS * DAY_MS) throw badInput(`from and to must be at most ${MAX_USAGE_DAYS} days apart`);
  return { from: start, to: end };
}

/** The range's arguments of both usage queries. */
const rangeArgs = builder.args((t) => ({
  from: t.field({ type: "DateTime", description: "Start of the range (default: 7 days before to)" }),
  to: t.field({ type: "DateTime", description: "End of the range, excluded (default: now)" }),
}));

/** The team's counts (`read`) in the hours that overlap the range the arguments name, and the team's keys by id. */
async function countsInRange<T>(
  ctx: Context,
  args: { from?: Date | null; to?: Date | null },
  read: (teamId: string, firstHour: Date, to: Date) => Promise<T[]>,
) {
  const teamId = teamIdOf(ctx);
  const { from, to } = rangeOf(args.from, args.to);
  const firstHour = new Date(Math.floor(from.getTime() / 3_600_000) * 3_600_000); // the hour holding `from`
  const [counts, keys] = await Promise.all([
    read(teamId, firstHour, to),
    prisma.apiKey.findMany({ where: { teamId }, select: { id: true, name: true, prefix: true } }),
  ]);
  return { counts, keyById: new Map(keys.map((k) => [k.id, k])) };
}

const periodOf = (hour: Date, granularity: Granularity): Date => (granularity === "HOUR" ? hour : new Date(Math.floor(hour.getTime() / DAY_MS) * DAY_MS));

builder.queryField("usageExport", (t) =>
  t.field({
    type: [UsageRowRef],
    ...needs("api_keys:read", "Requests per key and UTC hour or day of the team's keys, oldest period first, periods without requests left out: the hours that overlap from..to (at most 90 days apart; default the last 7 days)."),
    args: {
      ...rangeArgs,
      granularity: t.arg({ type: GranularityRef, required: true, defaultValue: "HOUR", description: "HOUR (default) or DAY" }),
    },
    resolve: async (_root, args, ctx) => {
      const { counts, keyById } = await countsInRange(ctx, args, hourlyCounts);
      const rows = new Map<string, UsageRow>();
      for (const { keyId, hour, count } of counts) {
        const key = keyById.get(keyId);
        if (!key) continue;
        const periodStart = periodOf(hour, args.granularity);
        const name = `${periodStart.toISOString()}|${keyId}`;
        const row = rows.get(name);
        if (row) row.requests += count;
        else rows.set(name, { keyId, keyName: key.name, keyPrefix: key.prefix, periodStart, requests: count });
      }
      return [...rows.values()].sort((a, b) => a.periodStart.getTime() - b.periodStart.getTime() || a.keyId.localeCompare(b.keyId));
    },
  }),
);

interface RouteRow extends KeyOfRow {
  route: string;
  counts: Record<Outcome, number>;
}

const UsageByRouteRef = valueObject<RouteRow>("UsageByRoute", "Answers to one key on one route template over a range, by outcome.", {
  ...KEY_FIELDS,
  route: ["String", "The method and route template (GET /v1/reports/{reportId}, POST /graphql), never a raw path"],
  succeeded: (t) => t.int({ description: "Answers below 400 (a 304 revalidation is one)", resolve: (row) => row.counts["2xx"] }),
  clientErrors: (t) => t.int({ description: "Refusals with a 4xx status other than 429", resolve: (row) => row.counts["4xx"] }),
  rateLimited: (t) => t.int({ description: "Refusals with 429 (the key's hourly budget, or its read points)", resolve: (row) => row.counts["429"] }),
  serverErrors: (t) => t.int({ description: "Failures with a 5xx status", resolve: (row) => row.counts["5xx"] }),
  total: (t) => t.int({ description: "All answers", resolve: (row) => Object.values(row.counts).reduce((n, c) => n + c, 0) }),
});

builder.queryField("usageByRoute", (t) =>
  t.field({
    type: [UsageByRouteRef],
    ...needs("api_keys:read", "Answers per key and route template of the team's keys, by outcome, in the hours that overlap from..to (at most 90 days apart; default the last 7 days): one row per key and route that was called, by key then route."),
    args: rangeArgs,
    resolve: async (_root, args, ctx) => {
      const { counts, keyById } = await countsInRange(ctx, args, routeCounts);
      const rows = new Map<string, RouteRow>();
      for (const { keyId, route, outcome, count } of counts) {
        const key = keyById.get(keyId);
        if (!key) continue;
        const name = `${keyId}|${route}`;
        let row = rows.get(name);
        if (!row) rows.set(name, (row = { keyId, keyName: key.name, keyPrefix: key.prefix, route, counts: { "2xx": 0, "4xx": 0, "429": 0, "5xx": 0 } }));
        row.counts[outcome] += count;
      }
      return [...rows.values()];
    },
  }),
);
