// GET /v1/audit-log (docs/api.md "Audit log"): the GraphQL auditLog connection under REST names,
// limit/offset mapped to first/after (a cursor is a position in the list). There is no other route: the log is
// read-only over every interface.
import type { Request } from "express";
import { auditCursor } from "../schema/types/audit-log";
import { pathNaming } from "../schema/errors";
import { operation, runRoot, RestError } from "./graphql";
import { queryInt, queryText } from "./input";
import type { RestRoute } from "./route";
import { snakeCase } from "./object-shapes";
import * as s from "./schemas";
import { AUDIT_LOG_ENTRY } from "./shapes";

const LIST = operation(`query RestAuditLog($first: Int!, $after: String, $action: String, $actorKeyId: ID, $targetId: ID, $from: DateTime, $to: DateTime) {
  auditLog(first: $first, after: $after, action: $action, actorKeyId: $actorKeyId, targetId: $targetId, from: $from, to: $to) {
    total: totalCount
    edges { node { ${AUDIT_LOG_ENTRY.selection} } }
  }
}`);

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** An ISO 8601 date or date-time query parameter, or a 400 naming it. */
export function queryInstant(req: Request, name: string): string | undefined {
  const value = queryText(req, name);
  if (value === undefined) return undefined;
  if (!ISO_INSTANT.test(value) || Number.isNaN(Date.parse(value))) throw new RestError(400, `${name} must be an ISO 8601 date-time, e.g. 2026-01-31T00:00:00Z`);
  return new Date(value).toISOString();
}

function bounded(req: Request, name: string, min: number, max: number, fallback: number): number {
  const value = queryInt(req, name) ?? fallback;
  if (value < min) throw new RestError(400, `${name} must be at least ${min}`);
  if (value > max) throw new RestError(400, `${name} must be at most ${max}`);
  return value;
}

/** The arguments' REST names, for messages: the paging pair is REST's own, the filters are in snake_case. */
const REST_ARGUMENTS: Record<string, string> = { first: "limit", after: "offset" };
const restNames = pathNaming((name) => REST_ARGUMENTS[name] ?? snakeCase(name));

interface Connection {
  total: number;
  edges: { node: unknown }[];
}

export const auditLogRoutes: RestRoute[] = [
  {
    method: "get",
    path: "/v1/audit-log",
    operationId: "listAuditLog",
    tag: "Audit log",
    summary: (needs) => `The team's audit log, newest first: keys, webhook endpoints, share links and reports changed (needs ${needs})`,
    operations: [LIST],
    query: s.auditLogQuery,
    answer: { body: s.pageOf(s.auditLogEntry) },
    responseDescription: "A page of entries",
    errors: [400],
    run: async (req, res) => {
      const limit = bounded(req, "limit", 1, 100, 50);
      const offset = bounded(req, "offset", 0, Number.MAX_SAFE_INTEGER, 0);
      const variables = {
        first: limit,
        after: offset > 0 ? auditCursor(offset - 1) : undefined,
        action: queryText(req, "action"),
        actorKeyId: queryText(req, "actor_key_id"),
        targetId: queryText(req, "target_id"),
        from: queryInstant(req, "from"),
        to: queryInstant(req, "to"),
      };
      const auditLog = await runRoot<Connection>(LIST, variables, res.locals.context, { nameOf: restNames });
      return { data: auditLog.edges.map((edge) => edge.node), total: auditLog.total, limit, offset };
    },
  },
];
