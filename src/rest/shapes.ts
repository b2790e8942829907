// The GraphQL selections of the REST responses. Each field is selected under its REST name (a GraphQL alias), so
// an operation's result already is the body of docs/api.md and is sent as it is: no second copy of every item per
// request (BENCHMARKS.md, scenario 1). Fields and order come from the field tables, which also give the OpenAPI
// response schemas (./schemas.ts).
import { z } from "zod";
import { restSelection } from "../schema/fields";
import { comparableFields } from "../schema/resources/comparable/fields";
import { insightFields } from "../schema/resources/insight/fields";
import { reportFields } from "../schema/resources/report/fields";
import { showingFields } from "../schema/resources/showing/fields";
import { socialPostFields } from "../schema/resources/social-post/fields";
import { DELIVERY_STATUSES } from "../schema/resources/webhook/object";
import { objectShape } from "./object-shapes";
import type { report, reportDetail, reportSummary, showing } from "./schemas";

export const SUMMARY_FIELDS = restSelection(reportFields, "summary");

export const REPORT_FRAGMENT = `fragment RestReport on Report { ${restSelection(reportFields)} }`;

export const SHOWING_FRAGMENT = `fragment RestShowing on Showing { ${restSelection(showingFields)} }`;

/** The detail: the report and its collections under their REST names (each at most 100 items, the nested default). */
export const DETAIL_FRAGMENT = `fragment RestReportDetail on Report {
  ${restSelection(reportFields)}
  comparable_properties: comparables { ${restSelection(comparableFields)} }
  showing_events: showings { ...RestShowing }
  social_media_posts: socialMediaPosts { ${restSelection(socialPostFields)} }
  agent_insights: agentInsights { ${restSelection(insightFields)} }
}
${SHOWING_FRAGMENT}`;

export type ReportSummaryBody = z.infer<typeof reportSummary>;
export type ReportBody = z.infer<typeof report>;
export type ShowingBody = z.infer<typeof showing>;
type ReportDetailBody = z.infer<typeof reportDetail>;

const COLLECTIONS = ["comparable_properties", "showing_events", "social_media_posts", "agent_insights"] as const;
type Collection = (typeof COLLECTIONS)[number];

/** A detail as GraphQL answers it: a collection the key may not read is null. */
export type ReportDetailResult = Omit<ReportDetailBody, Collection> & { [K in Collection]: NonNullable<ReportDetailBody[K]> | null };

/** The detail body: collections the key may not read are left out (usually there are none, and nothing is copied). */
export function toReportDetail(result: ReportDetailResult): ReportDetailBody {
  if (COLLECTIONS.every((name) => result[name] !== null)) return result as ReportDetailBody;
  const body: Partial<ReportDetailResult> = { ...result };
  for (const name of COLLECTIONS) if (body[name] === null) delete body[name];
  return body as ReportDetailBody;
}

// ---- webhooks: read from their GraphQL object types (./object-shapes.ts) ----

export const WEBHOOK_ENDPOINT = objectShape("WebhookEndpoint", "RestWebhook");
export const WEBHOOK_DELIVERY = objectShape("WebhookDelivery", "RestDelivery", {
  omit: ["endpointId"],
  types: { status: z.enum(DELIVERY_STATUSES) },
});
/**
 * The webhook payload's shape ({ id, type, timestamp, data }), so a receiver can recover missed deliveries from the
 * list; created_at is the same instant under the name the list had first.
 */
export const WEBHOOK_EVENT = objectShape("WebhookEvent", "RestEvent", {
  fields: ["id", "type", ["timestamp", "createdAt"], "data", ["created_at", "createdAt"]],
  types: { id: z.string() },
  descriptions: { timestamp: "When it happened: the payload's timestamp", created_at: "The same as timestamp (the name this list used first)" },
});
export const WEBHOOK_EVENT_TYPE = objectShape("WebhookEventType", "RestEventType");
