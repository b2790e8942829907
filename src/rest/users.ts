// GET /v1/users/me: the GraphQL `me` selected under the REST names of docs/api.md (./shapes.ts VIEWER).
import { operation } from "./graphql";
import type { RestRoute } from "./route";
import { getRoute } from "./route-kinds";
import * as s from "./schemas";
import { VIEWER } from "./shapes";

const ME = operation(`query RestMe { me { ${VIEWER.selection} } }`);

export const userRoutes: RestRoute[] = [
  getRoute({
    path: "/v1/users/me",
    operationId: "getCurrentUser",
    tag: "Users",
    summary: "The team, subscription, API key and rate-limit status of the key in use",
    operation: ME,
    variables: () => ({}),
    data: s.currentUser,
    responseDescription: "The current-user record",
  }),
];
