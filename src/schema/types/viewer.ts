// `me`: the team, subscription, API key and rate-limit status of the key making the request.
import { prisma } from "../../db";
import { callsThisMonth, nextMonthStart } from "../../auth/usage";
import { builder } from "../builder";
import { viewerOf } from "../scope";

interface ViewerShape {
  teamId: string;
  keyId: string;
}

const ApiUsage = builder.objectRef<{ teamId: string }>("ApiUsage").implement({
  fields: (t) => ({
    callsThisMonth: t.int({ resolve: ({ teamId }) => callsThisMonth(teamId) }),
    resetsAt: t.field({ type: "DateTime", resolve: () => nextMonthStart() }),
  }),
});

const Subscription = builder.objectRef<{ teamId: string; plan: string; status: string }>("TeamSubscription").implement({
  fields: (t) => ({
    plan: t.exposeString("plan"),
    status: t.exposeString("status"),
    apiUsage: t.field({ type: ApiUsage, resolve: ({ teamId }) => ({ teamId }) }),
  }),
});

const RateLimitStatus = builder.objectRef<{ tier: string; limit: number; remaining: number; resetsAt: number }>("RateLimitStatus").implement({
  fields: (t) => ({
    tier: t.exposeString("tier"),
    limit: t.exposeInt("limit", { description: "Requests allowed per clock hour (UTC)" }),
    remaining: t.exposeInt("remaining", { description: "Requests left in this hour, after this one" }),
    resetsAt: t.field({ type: "DateTime", resolve: (r) => new Date(r.resetsAt * 1000) }),
  }),
});

const Viewer = builder.objectRef<ViewerShape>("Viewer").implement({
  description: "The caller: its team, subscription, API key and rate-limit status.",
  fields: (t) => ({
    team: t.prismaField({
      type: "Team",
      resolve: (query, { teamId }) => prisma.team.findUniqueOrThrow({ ...query, where: { id: teamId } }),
    }),
    subscription: t.field({
      type: Subscription,
      resolve: async ({ teamId }) => {
        const team = await prisma.team.findUniqueOrThrow({ where: { id: teamId }, select: { plan: true, subscriptionStatus: true } });
        return { teamId, plan: team.plan, status: team.subscriptionStatus };
      },
    }),
    apiKey: t.prismaField({
      type: "ApiKey",
      // The key is in use by this very request; its stored last_used_at is written at most once a minute.
      resolve: async (query, { keyId }) => ({ ...(await prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: keyId } })), lastUsedAt: new Date() }),
    }),
    rateLimit: t.field({
      type: RateLimitStatus,
      nullable: true,
      resolve: (_v, _a, ctx) => ctx.rateLimit,
    }),
  }),
});

builder.queryField("me", (t) =>
  t.field({
    type: Viewer,
    description: "Who is calling. Needs only a valid key.",
    authScopes: { authenticated: true },
    resolve: (_root, _args, ctx) => {
      const viewer = viewerOf(ctx);
      return { teamId: viewer.teamId, keyId: viewer.keyId };
    },
  }),
);
