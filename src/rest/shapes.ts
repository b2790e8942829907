// The GraphQL selections of the REST responses. Each field is selected under its REST name (a GraphQL alias), so
// an operation's result already is the body of docs/api.md and is sent as it is: no second copy of every item per
// request (BENCHMARKS.md, scenario 1). Fields and order come from the field tables, which also give the OpenAPI
// response schemas (./schemas.ts).
import { z } from "zod";
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES } from "../audit/log";
import { CRM_KINDS } from "../webhooks/crm";
import { restSelection } from "../schema/fields";
import { reportFields } from "../schema/resources/report/fields";
import { showingFields } from "../schema/resources/showing/fields";
import { DELIVERY_STATUSES } from "../schema/resources/webhook/object";
import { collectionsSelection, COLLECTIONS, type Collection, type showing } from "./collections";
import { objectFragment, objectShape } from "./object-shapes";
import type { report, reportDetail, reportSummary } from "./report-schemas";

export const SUMMARY_FIELDS = restSelection(reportFields, "summary");

export const REPORT_FRAGMENT = `fragment RestReport on Report { ${restSelection(reportFields)} }`;

export const SHOWING_FRAGMENT = `fragment RestShowing on Showing { ${restSelection(showingFields)} }`;

/** The detail: the report and its collections under their REST names (each at most 100 items, the nested default). */
export const DETAIL_FRAGMENT = `fragment RestReportDetail on Report {
  ${restSelection(reportFields)}
  ${collectionsSelection()}
}`;

export type ReportSummaryBody = z.infer<typeof reportSummary>;
export type ReportBody = z.infer<typeof report>;
export type ShowingBody = z.infer<typeof showing>;
type ReportDetailBody = z.infer<typeof reportDetail>;


/** A detail as GraphQL answers it: a collection the key may not read is null. */
export type ReportDetailResult = Omit<ReportDetailBody, Collection> & { [K in Collection]: NonNullable<ReportDetailBody[K]> | null };

/** The detail body: collections the key may not read are left out (usually there are none, and nothing is copied). */
export function toReportDetail(result: ReportDetailResult): ReportDetailBody {
  if (COLLECTIONS.every((name) => result[name] !== null)) return result as ReportDetailBody;
  const body: Partial<ReportDetailResult> = { ...result };
  for (const name of COLLECTIONS) if (body[name] === null) delete body[name];
  return body as ReportDetailBody;
}

// ---- types without a field table: read from their GraphQL object types (./object-shapes.ts) ----

export const WEBHOOK_ENDPOINT = objectFragment("WebhookEndpoint", "RestWebhook");
export const WEBHOOK_DELIVERY = objectFragment("WebhookDelivery", "RestDelivery", {
  omit: ["endpointId"],
  types: { status: z.enum(DELIVERY_STATUSES) },
});
/**
 * The webhook payload's shape ({ id, type, timestamp, data }), so a receiver can recover missed deliveries from the
 * list; created_at is the same instant under the name the list had first.
 */
export const WEBHOOK_EVENT = objectFragment("WebhookEvent", "RestEvent", {
  fields: ["id", "type", ["timestamp", "createdAt"], "data", ["created_at", "createdAt"]],
  types: { id: z.string() },
  descriptions: { timestamp: "When it happened: the payload's timestamp", created_at: "The same as timestamp (the name this list used first)" },
});
export const WEBHOOK_EVENT_TYPE = objectFragment("WebhookEventType", "RestEventType");
export const CRM_DESTINATION = objectFragment("CrmDestination", "RestCrmDestination", { types: { kind: z.enum(CRM_KINDS) } });

const share = z.number().min(0).max(1);
export const VALUATION = objectShape("Valuation", {
  nested: { confidence: { types: { score: share } }, comparables: { types: { similarity: share } } },
});

/** The engagement's figures: the totals are of every platform, so they have none. */
export const ENGAGEMENT = objectShape("Engagement", {
  nested: { totals: { omit: ["platform"] }, platforms: { types: { platform: z.string() } } },
});

/**
 * The import's answer. An error's message names the record as the request did (posts[2].likes, or line 4: likes in
 * CSV), so REST makes it from the error's field and reason, which it selects besides (src/rest/social-posts.ts).
 */
export const IMPORT_RESULT = objectShape("SocialImportResult", {
  nested: {
    results: {
      omit: ["field", "reason"],
      descriptions: { message: "Why the record was refused, naming it: posts[2].likes …, or in CSV line 4: likes … (errors only)" },
    },
  },
});

/** GET /v1/users/me: the viewer's team, subscription, key and rate-limit status (not every field of each). */
export const VIEWER = objectShape("Viewer", {
  nested: {
    team: { fields: ["id", "name", "createdAt", "memberCount", "reportsCount"] },
    api_key: {
      fields: ["name", "prefix", "permissions", "rateLimitTier", "lastUsedAt", "createdAt"],
      types: { permissions: z.record(z.string(), z.array(z.string())) },
    },
    rate_limit: { omit: ["limit"] },
  },
});

export const SHARE_LINK = objectFragment("ShareLink", "RestShareLink");
export const USAGE_PERIOD = objectShape("UsagePeriod", { types: { requests: z.int().min(0) } });
const COUNT = z.int().min(0);
export const USAGE_BY_ROUTE = objectShape("UsageByRoute", {
  types: { succeeded: COUNT, clientErrors: COUNT, rateLimited: COUNT, serverErrors: COUNT, total: COUNT },
});
export const AUDIT_LOG_ENTRY = objectShape("AuditLogEntry", {
  types: { action: z.enum(AUDIT_ACTIONS), changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })) },
  nested: { actor: { types: { type: z.enum(AUDIT_ACTOR_TYPES) } }, target: { types: { id: z.string() } } },
});
export const GRAPHQL_DOCUMENT = objectShape("GraphQLDocument");
