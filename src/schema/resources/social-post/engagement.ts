// A report's social engagement: totals and per-platform sums, computed by the database in one statement (a report
// may have many posts; none is loaded into the process).
import { prisma } from "../../../db";
import { Prisma } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { teamIdOf } from "../../scope";
import { reportIdOfTeam } from "../report/lookup";
import { COUNTS, type CountName } from "./fields";
import { needs } from "../../needs";

interface Figures extends Record<CountName, number> {
  platform: string | null;
  posts: number;
  engagementRate: number | null;
  lastMetricsAt: Date | null;
}
interface Engagement {
  totals: Figures;
  platforms: Figures[];
}

const FiguresType = builder.objectRef<Figures>("EngagementFigures").implement({
  description: "Sums over posts (null counts count as 0)",
  fields: (t) => ({
    platform: t.exposeString("platform", { nullable: true, description: "The platform (null in the totals)" }),
    posts: t.exposeInt("posts", { description: "Posts" }),
    // Float: a sum over posts can pass 2^53 - 1 (each count is at most that); exact below it.
    ...Object.fromEntries(COUNTS.map((name) => [name, t.float({ description: `Sum of ${name} (exact up to 2^53 - 1)`, resolve: (f) => f[name] })])),
    engagementRate: t.exposeFloat("engagementRate", {
      nullable: true,
      description: "(likes + comments + shares + saves) / views over the posts that have views, to 4 decimals; null without views",
    }),
    lastMetricsAt: t.expose("lastMetricsAt", { type: "DateTime", nullable: true, description: "The newest metrics_at" }),
  }),
});

export const EngagementType = builder.objectRef<Engagement>("Engagement").implement({
  description: "A report's social engagement: totals and one entry per platform (by name)",
  fields: (t) => ({
    totals: t.field({ type: FiguresType, description: "Over every post", resolve: (e) => e.totals }),
    platforms: t.field({ type: [FiguresType], description: "One per platform with posts, by name", resolve: (e) => e.platforms }),
  }),
});

type Row = { total: number; platform: string | null; posts: number; engaged: bigint | null; viewed: bigint | null; last: Date | null } & Record<CountName, bigint>;

/** Totals and per-platform sums of a report's posts (GROUPING SETS: both in one statement). */
export async function engagementOf(reportId: string, teamId: string): Promise<Engagement> {
  const sums = Prisma.join(COUNTS.map((name) => Prisma.sql`coalesce(sum(${Prisma.raw(name)}), 0)::bigint AS ${Prisma.raw(name)}`));
  const rows = await prisma.$queryRaw<Row[]>`
    SELECT grouping(platform)::int AS total, platform, count(*)::int AS posts, ${sums},
      sum(coalesce(likes, 0) + coalesce(comments, 0) + coalesce(shares, 0) + coalesce(saves, 0)) FILTER (WHERE views > 0)::bigint AS engaged,
      sum(views) FILTER (WHERE views > 0)::bigint AS viewed,
      max(metrics_at) AS last
    FROM social_media_posts WHERE report_id = ${reportId}::uuid AND team_id = ${teamId}::uuid
    GROUP BY GROUPING SETS ((platform), ()) ORDER BY total DESC, platform`;
  const figures = (row: Row | undefined, platform: string | null): Figures => ({
    platform,
    posts: row?.posts ?? 0,
    ...(Object.fromEntries(COUNTS.map((name) => [name, row ? Number(row[name]) : 0])) as Record<CountName, number>),
    engagementRate: row?.viewed ? Math.round((Number(row.engaged) / Number(row.viewed)) * 10_000) / 10_000 : null,
    lastMetricsAt: row?.last ?? null,
  });
  const [totals, ...platforms] = rows;
  return { totals: figures(totals, null), platforms: platforms.map((row) => figures(row, row.platform)) };
}

builder.queryFields((t) => ({
  socialEngagement: t.field({
    type: EngagementType,
    ...needs("social_media:read", "The social engagement of one report of the team."),
    args: { reportId: t.arg.id({ required: true, description: "The report's id" }) },
    resolve: async (_root, { reportId }, ctx) => {
      const teamId = teamIdOf(ctx);
      return engagementOf(await reportIdOfTeam(teamId, String(reportId)), teamId);
    },
  }),
}));
