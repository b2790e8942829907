// GET /v1/users/me: the GraphQL `me` selected under the REST names of docs/api.md.
import { operation, runRoot } from "./graphql";
import type { RestRoute } from "./route";
import * as s from "./schemas";

const ME = operation(`query RestMe {
  me {
    team { id name created_at: createdAt member_count: memberCount reports_count: reportsCount }
    subscription { plan status api_usage: apiUsage { calls_this_month: callsThisMonth resets_at: resetsAt } }
    api_key: apiKey { name prefix permissions rate_limit_tier: rateLimitTier last_used_at: lastUsedAt created_at: createdAt }
    rate_limit: rateLimit { tier remaining resets_at: resetsAt }
  }
}`);

export const userRoutes: RestRoute[] = [
  {
    method: "get",
    path: "/v1/users/me",
    operationId: "getCurrentUser",
    tag: "Users",
    summary: "The team, subscription, API key and rate-limit status of the key in use",
    operations: [ME],
    answer: { data: s.currentUser },
    responseDescription: "The current-user record",
    run: (_req, res) => runRoot(ME, {}, res.locals.context),
  },
];
