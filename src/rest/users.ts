// GET /v1/users/me: the GraphQL `me` selected under the REST names of docs/api.md (./shapes.ts VIEWER).
import { operation, runRoot } from "./graphql";
import type { RestRoute } from "./route";
import * as s from "./schemas";
import { VIEWER } from "./shapes";

const ME = operation(`query RestMe { me { ${VIEWER.selection} } }`);

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
