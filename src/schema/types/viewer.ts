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
  description: "The team's API calls this month.",
  fields: (t) => ({
    callsThisMonth: t.int({ description: "Authenticated requests of the team in this UTC calendar month", resolve: ({ teamId }) => callsThisMonth(teamId) }),
    resetsAt: t.field({ type: "DateTime", description: "The first instant of next month (UTC)", resolve: () => nextMonthStart() }),
  }),
});

const Subscription = builder.objectRef<{ teamId: string; plan: string; status: string }>("TeamSubscription").implement({
  description: "The team's subscription and its API usage.",
  fields: (t) => ({
    plan: t.exposeString("plan", { description: "Subscription plan" }),
    status: t.exposeString("status", { description: "Subscription status, e.g. active" }),
    apiUsage: t.field({ type: ApiUsage, description: "API calls this month", resolve: ({ teamId }) => ({ teamId }) }),
  }),
});

const RateLimitStatus = builder.objectRef<{ tier: string; limit: number; remaining: number; resetsAt: number }>("RateLimitStatus").implement({
  description: "The calling key's rate limit in the current clock hour (UTC).",
  fields: (t) => ({
    tier: t.exposeString("tier", { description: "The key's rate-limit tier" }),
    limit: t.exposeInt("limit", { description: "Requests allowed per clock hour (UTC)" }),
    remaining: t.exposeInt("remaining", { description: "Requests left in this hour, after this one" }),
    resetsAt: t.field({ type: "DateTime", description: "When the hour's budget starts anew", resolve: (r) => new Date(r.resetsAt * 1000) }),
  }),
});

const Viewer = builder.objectRef<ViewerShape>("Viewer").implement({
  description: "The caller: its team, subscription, API key and rate-limit status.",
  fields: (t) => ({
    team: t.prismaField({
      type: "Team",
      description: "The caller's team",
      resolve: (query, { teamId }) => prisma.team.findUniqueOrThrow({ ...query, where: { id: teamId } }),
    }),
    subscription: t.field({
      type: Subscription,
      description: "The team's subscription and API usage",
      resolve: async ({ teamId }) => {
        const team = await prisma.team.findUniqueOrThrow({ where: { id: teamId }, select: { plan: true, subscriptionStatus: true } });
        return { teamId, plan: team.plan, status: team.subscriptionStatus };
      },
    }),
    apiKey: t.prismaField({
      type: "ApiKey",
      description: "The key making this request",
      // The key is in use by this very request; its stored last_used_at is written at most once a minute.
      resolve: async (query, { keyId }) => ({ ...(await prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: keyId } })), lastUsedAt: new Date() }),
    }),
    rateLimit: t.field({
      type: RateLimitStatus,
      nullable: true,
      description: "The key's rate limit now (null when limits do not apply)",
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
