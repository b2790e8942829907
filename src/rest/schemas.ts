// The zod schemas of REST v1 for the OpenAPI document: query parameters, bodies and responses. Bodies and responses
// are derived from the field tables of the schema (src/schema/resources/*/fields.ts), so the document cannot drift
// from what GraphQL accepts and answers; the GraphQL schema itself checks every value.
import { z } from "zod";
import { AUDIT_ACTIONS } from "../audit/log";
import { restBodySchema } from "../schema/fields";
import { comparableFields, MAX_REPLACED } from "../schema/resources/comparable/fields";
import { insightFields } from "../schema/resources/insight/fields";
import { reportFields } from "../schema/resources/report/fields";
import { showingFields } from "../schema/resources/showing/fields";
import { COUNTS, PLATFORMS } from "../schema/resources/social-post/fields";
import { RECORD_FIELDS, type RecordField } from "../schema/resources/social-post/import-items";
import { agentInsight, comparable, showing, socialMediaPost } from "./collections";
import { FORMATS, resoBodySchema, resoPropertySchema } from "./reso";
import { enumValues, inputShape, objectShape } from "./object-shapes";
import { report, reportDetail, reportSummary } from "./report-schemas";
import { AUDIT_LOG_ENTRY, CRM_DESTINATION, ENGAGEMENT, IMPORT_RESULT, SHARE_LINK, USAGE_BY_ROUTE, USAGE_PERIOD, VALUATION, VIEWER, WEBHOOK_DELIVERY, WEBHOOK_ENDPOINT, WEBHOOK_EVENT, WEBHOOK_EVENT_TYPE } from "./shapes";
import { pageRules } from "../schema/rules";
import { EVENT_TYPES, type EventType } from "../webhooks/catalog";
import { CRM_EVENT_TYPES, CRM_KINDS } from "../webhooks/crm";
import { DELIVERY_STATUSES } from "../schema/resources/webhook/object";
import { SUMMARY_LENGTHS, WORD_LIMITS } from "../schema/resources/summary/screen";
import { SUMMARY_TONES, TEMPLATE_MODEL } from "../schema/resources/summary/template";

// ---- requests ----

const limit = pageRules.limit.default(50).meta({ description: "Page size, 1 to 100 (decimal digits)" });
const offset = pageRules.offset.default(0).meta({ description: "Items to skip, at least 0 (decimal digits)" });
const addressText = z.string().trim().min(1).max(1000).meta({
  description: "Partial, case-insensitive address; punctuation and USPS street-suffix, unit and directional abbreviations are ignored",
});
// An example only where the address is required: Swagger UI's "Try it out" fills an optional parameter with its
// example, which turns the list into a single best match.
const addressQuery = addressText.meta({ example: "123 n main st" });

export const reportListQuery = z.object({
  limit,
  offset,
  status: z.enum(enumValues("ReportStatusFilter")).default("all"),
  address: addressText.optional().meta({ description: "When given, answers the single best match ({ data: report }); limit, offset and status are ignored" }),
  address_contains: addressText.optional().meta({ description: "Lists every report whose address contains this (matched as address is), newest first, paged" }),
});
export const addressSearchQuery = z.object({ address: addressQuery });
// docs/api.md "RESO": a report read or created, or a comparable created, as a RESO record
const format = z.enum(FORMATS).optional();
export const reportGetQuery = z.object({
  address: addressText.optional().meta({ description: "When given, overrides the path: the best match for this address is returned" }),
  format: format.meta({ description: "json (the default) or reso: the report as a RESO Data Dictionary 2.0 Property record (README: RESO Property records)" }),
});
export const createFormatQuery = z
  .object({
    format: format.meta({
      description: "json or reso: the body is a RESO Property record. Without it, a body with RESO names and none of this API's is read as RESO",
    }),
  })
  .meta({ id: "CreateFormatQuery" });
export const reportIdParams = z.object({ reportId: z.string().meta({ description: "Report uuid (any word when ?address= is given)" }) });

// Whole-body examples: what "Try it out" sends as it is, so a realistic report rather than each field's type name.
export const createReportBody = restBodySchema(reportFields, "create").meta({
  id: "CreateReportBody",
  example: {
    address: "742 Evergreen Terrace",
    city: "Springfield",
    state: "IL",
    zip: "62704",
    price: 425000,
    beds: 3,
    baths: 2.5,
    sqft: 1850,
    year_built: 1998,
    property_type: "single_family",
    lot_size: 0.25,
    description: "Updated three-bedroom colonial on a quiet, tree-lined street, close to schools and parks.",
    mls_id: "MLS-2026-004512",
    custom_agent_name: "Jordan Rivera",
    custom_agent_email: "jordan.rivera@example.com",
    agent_phone: "+1 (217) 555-0107",
    brokerage_name: "Prairie Home Realty",
    agent_license: "IL 475.123456",
  },
});
export const updateReportBody = restBodySchema(reportFields, "update").meta({
  id: "UpdateReportBody",
  example: { price: 415000, description: "Price reduced: updated three-bedroom colonial close to schools and parks." },
});

export const showingListQuery = z.object({
  report_id: z.uuid().optional().meta({ description: "Only the showings of this report" }),
  limit,
  offset,
});
export const showingIdParams = z.object({ showingId: z.string().meta({ description: "Showing uuid or unique_showing_key" }) });

export const createShowingBody = restBodySchema(showingFields, "create").meta({ id: "CreateShowingBody" });
export const updateShowingBody = restBodySchema(showingFields, "update").meta({ id: "UpdateShowingBody" });

export const pageQuery = z.object({ limit, offset });

export const createComparableBody = restBodySchema(comparableFields, "create").meta({ id: "CreateComparableBody" });
export const resoReportBody = resoBodySchema("report").meta({ id: "ResoReportBody", description: "A RESO Property record (format=reso); names not mapped are answered in ignored_fields" });
export const resoComparableBody = resoBodySchema("comparable").meta({ id: "ResoComparableBody", description: "A RESO Property record (format=reso); names not mapped are answered in ignored_fields" });
export const updateComparableBody = restBodySchema(comparableFields, "update").meta({ id: "UpdateComparableBody" });
export const replaceComparablesBody = z
  .object({ comparables: z.array(createComparableBody).max(MAX_REPLACED).meta({ description: `The new set, 0 to ${MAX_REPLACED} comparables` }) })
  .meta({ id: "ReplaceComparablesBody" });

export const socialPostListQuery = z.object({
  limit,
  offset,
  platform: z.enum(PLATFORMS).optional().meta({ description: "Only this platform's posts (any case; twitter is x)" }),
});
export const importQuery = z.object({
  atomic: z.enum(["true", "false"]).default("false").meta({ description: "true: any invalid record refuses the whole import (400), nothing is saved" }),
});
const count = z.int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional().meta({ example: 120 });
// Every field of a record (RECORD_FIELDS) has its rule here: one added there fails to type-check until it does.
const recordRules = {
  platform: z.enum(PLATFORMS).meta({ description: `${PLATFORMS.join(", ")} (any case; twitter is accepted for x)`, example: "instagram" }),
  external_id: z.string().min(1).max(255).meta({ description: "The platform's post id", example: "C3xYz01" }),
  url: z.string().optional().meta({ example: "https://www.instagram.com/p/C3xYz01/" }),
  caption: z.string().max(5000).optional().meta({ example: "Open house Saturday 1-4pm" }),
  posted_at: z.iso.datetime({ offset: true }).optional().meta({ example: "2026-05-01T14:00:00Z" }),
  ...(Object.fromEntries(COUNTS.map((name) => [name, count])) as Record<(typeof COUNTS)[number], typeof count>),
  metrics_at: z.iso.datetime({ offset: true }).optional().meta({ description: "When the counts were read (default: now)", example: "2026-05-03T09:00:00Z" }),
} satisfies Record<RecordField, z.ZodType>;
const importRecord = z.object(Object.fromEntries(RECORD_FIELDS.map((name) => [name, recordRules[name]]))).meta({ id: "SocialPostRecord" });
// A record that is not valid does not make the request invalid: it is answered as an error result (unless atomic).
const anyRecord = z.union([importRecord, z.unknown()]).meta({ description: "A SocialPostRecord; anything else is answered as an error result" });
export const importBody = z.object({ posts: z.array(anyRecord).min(1).max(500) }).meta({ id: "SocialPostImportBody" });
export const importCsv = z.string().meta({
  description: "UTF-8 CSV with a header row of the record's names, e.g. platform,external_id,likes,views; one post per row",
  example: "platform,external_id,likes,views\ninstagram,C3xYz01,120,2400\n",
});

export const createInsightBody = restBodySchema(insightFields, "create").meta({ id: "CreateInsightBody" });
export const updateInsightBody = restBodySchema(insightFields, "update").meta({ id: "UpdateInsightBody" });

// ---- responses ----

export { agentInsight, comparable, showing, socialMediaPost };

const dateTime = () => z.iso.datetime();

export { report, reportDetail, reportSummary };
export const valuation = VALUATION.schema.meta({ id: "Valuation", description: "A comparative market analysis of the report, computed on read" });
export const importResult = IMPORT_RESULT.schema.meta({ id: "SocialImportResult" });
export const engagement = ENGAGEMENT.schema.meta({ id: "SocialEngagement" });

export const summaryBody = z
  .object({
    tone: z.enum(SUMMARY_TONES).optional().meta({ description: "professional (default), warm or luxury" }),
    length: z
      .enum(SUMMARY_LENGTHS)
      .optional()
      .meta({ description: `short (≤ ${WORD_LIMITS.short} words), standard (default, ≤ ${WORD_LIMITS.standard}) or long (≤ ${WORD_LIMITS.long})` }),
    save: z.boolean().optional().meta({ description: "Save it as the report's executive_summary (default true; needs reports:update)" }),
  })
  .meta({ id: "GenerateSummaryBody", description: "Optional: no body means the defaults" });
export const generatedSummary = z
  .object({
    report_id: z.uuid(),
    executive_summary: z.string(),
    source: z.enum(["template", "ai"]).meta({ description: "template: written offline from the inputs; ai: by a language model" }),
    model: z.string().meta({ description: `${TEMPLATE_MODEL} for the template, else the model that answered` }),
    generated_at: z.iso.datetime(),
    saved: z.boolean(),
    warnings: z.array(z.string()).meta({
      description:
        "fair_housing:<phrase> for each listed phrase in the text; ungrounded_number:<n> for each number not in the inputs; truncated:<words> when a model's text was cut to the length's limit",
    }),
  })
  .meta({ id: "GeneratedSummary" });

// ---- envelopes ----

export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema });
export const mutationOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema, message: z.string() });
/** A create that says which of the body's names it did not take (a report's create, and any RESO record). */
export const createdOf = <T extends z.ZodType>(schema: T) =>
  mutationOf(schema).extend({
    ignored_fields: z
      .array(z.string())
      .optional()
      .meta({ description: "The body's names that were not taken: a RESO record's names that were not mapped, or a report body's names that are not fields of a new report" }),
  });
export const resoProperty = resoPropertySchema().meta({ id: "ResoProperty", description: "A report as a RESO Data Dictionary 2.0 Property record (format=reso)" });
export const pageOf = <T extends z.ZodType>(schema: T) => z.object({ data: z.array(schema), total: z.int(), limit: z.int(), offset: z.int() });
export const messageOnly = z.object({ message: z.string() }).meta({ id: "Message" });
export const errorBody = z
  .object({ error: z.object({ message: z.string(), status: z.int().meta({ description: "Equal to the HTTP status" }) }) })
  .meta({ id: "Error" });

export const currentUser = VIEWER.schema.meta({ id: "CurrentUser" });

// ---- Share links (src/rest/share-links.ts; docs/api.md "Share links") ----

export const createShareLinkBody = inputShape("CreateShareLinkInput", {
  types: { label: z.string().max(200).nullable(), expires_at: dateTime() },
  examples: { label: "For the Smiths" },
}).meta({ id: "CreateShareLinkBody" });
export const shareLink = SHARE_LINK.schema.meta({ id: "ShareLink" });
export const shareLinkWithToken = shareLink
  .extend({
    url: z.string().meta({ description: "The public page: <this server>/r/<token> (its PDF: the same with .pdf). Shown only now" }),
    token: z.string().meta({ description: "43 characters of base64url; only its SHA-256 is kept. Shown only now" }),
    warnings: z.array(z.enum(["report_is_draft"])).meta({
      description: "What to check before sending the link (empty when nothing): report_is_draft, the report is still a draft and the client sees it unfinished",
    }),
  })
  .meta({ id: "ShareLinkWithToken" });
export const shareLinkParams = z.object({
  reportId: z.string().meta({ description: "Report uuid" }),
  linkId: z.string().meta({ description: "The share link's uuid" }),
});

// ---- Webhooks (src/rest/webhooks.ts) ----

/** An endpoint or destination with its signing secret beside its fields (GraphQL's <type>WithSecret holds both). */
const withSecret = (schema: z.ZodObject, type: "WebhookEndpointWithSecret" | "CrmDestinationWithSecret") =>
  schema.extend(objectShape(type, { fields: ["secret"] }).schema.shape).meta({ id: type });

// The bodies are the GraphQL input types under REST names, with the rules the resolver checks written as JSON schema.
const webhookInput = {
  types: {
    url: z.url({ protocol: /^https?$/ }).max(2000),
    events: z.array(z.enum(["*", ...(Object.keys(EVENT_TYPES) as EventType[])])).min(1),
    description: z.string().max(1000).nullable(),
  },
  examples: { url: "https://crm.example.com/hooks/prs", events: ["report.published", "showing.created"], description: "CRM sync" },
};
export const createWebhookBody = inputShape("CreateWebhookEndpointInput", webhookInput).meta({ id: "CreateWebhookBody" });
export const updateWebhookBody = inputShape("UpdateWebhookEndpointInput", webhookInput).meta({ id: "UpdateWebhookBody", description: "Only the fields given are changed" });
export const webhookEndpoint = WEBHOOK_ENDPOINT.schema.meta({ id: "WebhookEndpoint" });
export const webhookEndpointWithSecret = withSecret(webhookEndpoint, "WebhookEndpointWithSecret");
export const webhookDelivery = WEBHOOK_DELIVERY.schema.meta({ id: "WebhookDelivery" });
export const webhookEvent = WEBHOOK_EVENT.schema.meta({
  id: "WebhookEvent",
  description: "An event in the shape of the webhook payload (id, type, timestamp, data), with created_at as an alias of timestamp",
});
export const webhookEventType = WEBHOOK_EVENT_TYPE.schema.meta({ id: "WebhookEventType" });
// ---- CRM destinations (src/rest/crm-destinations.ts) ----

const crmInput = {
  types: {
    kind: z.enum(CRM_KINDS),
    url: z.url({ protocol: /^https?$/ }).max(2000),
    api_key: z.string().min(1).max(200),
    events: z.array(z.enum(CRM_EVENT_TYPES)).min(1),
    description: z.string().max(1000).nullable(),
  },
  examples: { kind: "follow_up_boss", api_key: "fub_api_key_of_the_team", events: ["visitor.signed_in"], description: "Leads of our open houses" },
};
export const createCrmDestinationBody = inputShape("CreateCrmDestinationInput", crmInput).meta({ id: "CreateCrmDestinationBody" });
export const updateCrmDestinationBody = inputShape("UpdateCrmDestinationInput", crmInput).meta({ id: "UpdateCrmDestinationBody", description: "Only the fields given are changed" });
export const crmDestination = CRM_DESTINATION.schema.meta({ id: "CrmDestination" });
export const crmDestinationWithSecret = withSecret(crmDestination, "CrmDestinationWithSecret");
export const crmDestinationIdParams = z.object({ destinationId: z.string().meta({ description: "The destination's uuid" }) });
export const crmDeliveryParams = crmDestinationIdParams.extend({ deliveryId: z.string().meta({ description: "The delivery's uuid" }) });

export const webhookIdParams = z.object({ webhookId: z.string().meta({ description: "The endpoint's uuid" }) });
export const deliveryParams = webhookIdParams.extend({ deliveryId: z.string().meta({ description: "The delivery's uuid" }) });
export const eventIdParams = z.object({ eventId: z.string().meta({ description: "The event's id (evt_…)" }) });
export const eventListQuery = pageQuery.extend({ type: z.string().optional().meta({ description: "Only events of this type" }) });
export const deliveryListQuery = pageQuery.extend({
  status: z.enum(DELIVERY_STATUSES).optional().meta({ description: "Only attempts in this status" }),
  event_type: z.string().optional().meta({ description: "Only attempts sending events of this type" }),
});

// ---- audit log and usage export (docs/api.md "Sharing, records and operations") ----

const instant = (description: string) => z.iso.datetime({ offset: true }).optional().meta({ description });
export const auditLogQuery = z.object({
  limit,
  offset,
  action: z.enum(AUDIT_ACTIONS).optional().meta({ description: "Only entries of this action" }),
  actor_key_id: z.uuid().optional().meta({ description: "Only changes made with this key" }),
  target_id: z.string().optional().meta({ description: "Only changes to this object (a key, endpoint, share link or report id)" }),
  from: instant("Only entries at or after this instant (ISO 8601)"),
  to: instant("Only entries before this instant (ISO 8601)"),
});
export const auditLogEntry = AUDIT_LOG_ENTRY.schema.meta({ id: "AuditLogEntry" });

export const usageQuery = z.object({
  from: instant("Start of the range (default: 7 days before to); at most 90 days before to"),
  to: instant("End of the range, excluded (default: now)"),
  granularity: z.enum(["hour", "day"]).default("hour").meta({ description: "UTC hours or UTC days" }),
  format: z.enum(["json", "csv"]).default("json").meta({ description: "json, or csv with a header row of the same names" }),
});
export const usageRow = USAGE_PERIOD.schema.meta({ id: "UsagePeriod" });
export const usageCsv = z.string().meta({ description: `${USAGE_PERIOD.names.map(([rest]) => rest).join(",")} and one line per row (RFC 4180)` });
export const usageRoutesQuery = usageQuery.omit({ granularity: true });
export const usageRouteRow = USAGE_BY_ROUTE.schema.meta({ id: "UsageByRoute" });
export const usageRoutesCsv = z.string().meta({ description: `${USAGE_BY_ROUTE.names.map(([rest]) => rest).join(",")} and one line per row (RFC 4180)` });
