// GET /v1/users/me: the GraphQL `me` selected under the REST names of spec.md.
import { Router } from "express";
import type { z } from "zod";
import { operation, run } from "./graphql";
import { allowOnly, handle } from "./route";
import type { currentUser } from "./schemas";

const ME = operation(`query RestMe {
  me {
    team { id name created_at: createdAt member_count: memberCount reports_count: reportsCount }
    subscription { plan status api_usage: apiUsage { calls_this_month: callsThisMonth resets_at: resetsAt } }
    api_key: apiKey { name prefix permissions rate_limit_tier: rateLimitTier last_used_at: lastUsedAt created_at: createdAt }
    rate_limit: rateLimit { tier remaining resets_at: resetsAt }
  }
}`);

export function usersRouter(): Router {
  const router = Router();
  router.get(
    "/users/me",
    handle(async (_req, res) => {
      const { me } = await run<{ me: z.infer<typeof currentUser> }>(ME, {}, res.locals.context);
      res.json({ data: me });
    }),
  );
  allowOnly(router, "/users/me", ["GET"]);
  return router;
}
