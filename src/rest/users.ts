// GET /v1/users/me
import { Router } from "express";
import { operation, run } from "./graphql";
import { allowOnly, handle } from "./route";

const ME = operation(`query RestMe {
  me {
    team { id name createdAt memberCount reportsCount }
    subscription { plan status apiUsage { callsThisMonth resetsAt } }
    apiKey { name prefix permissions rateLimitTier lastUsedAt createdAt }
    rateLimit { tier remaining resetsAt }
  }
}`);

interface MeData {
  me: {
    team: { id: string; name: string; createdAt: string; memberCount: number; reportsCount: number };
    subscription: { plan: string; status: string; apiUsage: { callsThisMonth: number; resetsAt: string } };
    apiKey: { name: string; prefix: string; permissions: unknown; rateLimitTier: string; lastUsedAt: string | null; createdAt: string };
    rateLimit: { tier: string; remaining: number; resetsAt: string } | null;
  };
}

export function usersRouter(): Router {
  const router = Router();
  router.get(
    "/users/me",
    handle(async (_req, res) => {
      const { me } = await run<MeData>(ME, {}, res.locals.context);
      res.json({
        data: {
          team: {
            id: me.team.id,
            name: me.team.name,
            created_at: me.team.createdAt,
            member_count: me.team.memberCount,
            reports_count: me.team.reportsCount,
          },
          subscription: {
            plan: me.subscription.plan,
            status: me.subscription.status,
            api_usage: { calls_this_month: me.subscription.apiUsage.callsThisMonth, resets_at: me.subscription.apiUsage.resetsAt },
          },
          api_key: {
            name: me.apiKey.name,
            prefix: me.apiKey.prefix,
            permissions: me.apiKey.permissions,
            rate_limit_tier: me.apiKey.rateLimitTier,
            last_used_at: me.apiKey.lastUsedAt,
            created_at: me.apiKey.createdAt,
          },
          rate_limit: me.rateLimit && { tier: me.rateLimit.tier, remaining: me.rateLimit.remaining, resets_at: me.rateLimit.resetsAt },
        },
      });
    }),
  );
  allowOnly(router, "/users/me", ["GET"]);
  return router;
}
