// The zod schemas of REST v1: what each route accepts (built from the shared field rules of the GraphQL schema,
// under the snake_case names of spec.md) and what it answers. Routes validate with them and the OpenAPI document
// is generated from them, so the two cannot drift.
import { z } from "zod";
import { reportFieldRules, showingFieldRules } from "../schema/validation";
import { reportAliases, reportInputNames, showingInputNames } from "./names";

// ---- requests ----

type Rules = Record<string, z.ZodType>;

/** The rules of the named REST fields, each looked up under its GraphQL name. */
function restRules<N extends Record<string, string>>(names: N, rules: Rules, fields: ReadonlyArray<keyof N & string>): Rules {
  return Object.fromEntries(fields.map((rest) => [rest, rules[names[rest]]]));
}
const optional = (rules: Rules): Rules => Object.fromEntries(Object.entries(rules).map(([k, rule]) => [k, rule.optional()]));

/** Query integers arrive as text. */
const queryInt = () => z.coerce.number().int();
const limit = queryInt().min(1).max(100).default(50).meta({ description: "Page size, 1 to 100" });
// zod-to-openapi guesses nullability by parsing null, which coerces to 0 and passes min(0): so state the type.
const offset = queryInt().min(0).default(0).meta({ type: "integer", minimum: 0, default: 0, description: "Items to skip, at least 0" });
const addressQuery = z.string().trim().min(1).max(1000).meta({
  description: "Partial, case-insensitive address; punctuation and USPS street-suffix, unit and directional abbreviations are ignored",
  example: "123 n main st",
});

export const reportListQuery = z.object({
  limit,
  offset,
  status: z.enum(["draft", "published", "all"]).default("all"),
  address: addressQuery.optional().meta({ description: "When given, answers the single best match ({ data: report }); limit, offset and status are ignored" }),
});
export const addressSearchQuery = z.object({ address: addressQuery });
export const reportGetQuery = z.object({
  address: addressQuery.optional().meta({ description: "When given, overrides the path: the best match for this address is returned" }),
});
export const reportIdParams = z.object({ reportId: z.string().meta({ description: "Report uuid (any word when ?address= is given)" }) });

const reportValueFields = [
  "city", "state", "zip", "price", "beds", "baths", "sqft", "year_built", "lot_size", "property_type", "description",
  "executive_summary", "listing_agent", "created_by", "custom_agent_name", "custom_agent_email", "portal_property_id",
  "portal_url", "mls_id", "primary_color", "secondary_color",
] as const;
const reportSwitchFields = [
  "status", "is_draft", "show_comps_on_report", "show_neighborhood_on_report", "show_social_media_on_report",
  "show_showings_on_report", "show_agent_insights_on_report",
] as const;

/** The alias spellings, documented beside their spec names (they are renamed before validation). */
function aliasRules(rules: Rules): Rules {
  return Object.fromEntries(
    Object.entries(reportAliases)
      .filter(([, name]) => rules[name])
      .map(([alias, name]) => [alias, rules[name].meta({ description: `Alias of ${name}; ${name} wins when both are sent` })]),
  );
}

const createReportRules = restRules(reportInputNames, reportFieldRules, ["address", ...reportValueFields]);
export const createReportBody = z.object({ ...createReportRules, ...aliasRules(createReportRules) }).meta({ id: "CreateReportBody" });

const updateReportRules = optional(restRules(reportInputNames, reportFieldRules, ["address", ...reportValueFields, ...reportSwitchFields]));
export const updateReportBody = z.object({ ...updateReportRules, ...aliasRules(updateReportRules) }).meta({ id: "UpdateReportBody" });

export const showingListQuery = z.object({
  report_id: z.uuid().optional().meta({ description: "Only the showings of this report" }),
  limit,
  offset,
});
export const showingIdParams = z.object({ showingId: z.string().meta({ description: "Showing uuid or unique_showing_key" }) });

const showingValueFields = Object.keys(showingInputNames).filter((n) => n !== "report_id" && n !== "event_type") as Array<keyof typeof showingInputNames>;
export const createShowingBody = z
  .object({
    ...restRules(showingInputNames, showingFieldRules, ["report_id", ...showingValueFields]),
    event_type: showingFieldRules.eventType.optional().meta({ description: "Defaults to showing" }),
  })
  .meta({ id: "CreateShowingBody" });
export const updateShowingBody = z
  .object(optional(restRules(showingInputNames, showingFieldRules, ["event_type", ...showingValueFields])))
  .meta({ id: "UpdateShowingBody" });

/** Message overrides for REST requests (spec.md's sample "Address is required"; query numbers that are not numbers). */
export const restErrorMap: z.core.$ZodErrorMap = (issue) => {
  const field = issue.path?.[issue.path.length - 1];
  if (field === "address" && (issue.input === undefined || issue.code === "too_small")) return "Address is required";
  if (issue.code === "invalid_type" && issue.expected === "number" && Number.isNaN(issue.input)) return "must be an integer";
  return undefined;
};

// ---- responses ----

const dateTime = () => z.iso.datetime();
const text = () => z.string().nullable();
const int = () => z.int().nullable();
const num = () => z.number().nullable();
const when = () => dateTime().nullable();
const reportStatus = z.enum(["draft", "published"]);

/** Names of the sample responses (bedrooms, bathrooms, square_feet, date_created), carried beside the spec names. */
const sampleNames = { bedrooms: int(), bathrooms: num(), square_feet: int(), date_created: dateTime() };

export const reportSummary = z
  .object({
    id: z.uuid(),
    address: z.string(),
    city: text(),
    state: text(),
    zip: text(),
    price: num(),
    beds: int(),
    baths: num(),
    sqft: int(),
    year_built: int(),
    property_type: text(),
    status: reportStatus,
    is_published: z.boolean(),
    is_draft: z.boolean(),
    published_at: when(),
    views_count: z.int(),
    saves_count: z.int(),
    showings_count: z.int(),
    created_at: dateTime(),
    updated_at: dateTime(),
    ...sampleNames,
  })
  .meta({ id: "ReportSummary", description: "A report in list responses, with both the documented and the sample field names" });

export const report = reportSummary
  .extend({
    description: text(),
    lot_size: num(),
    portal_url: text(),
    portal_property_id: text(),
    mls_id: text(),
    listing_agent: z.string(),
    created_by: z.string(),
    custom_agent_name: text(),
    custom_agent_email: text(),
    primary_color: text(),
    secondary_color: text(),
    executive_summary: text(),
    show_comps_on_report: z.boolean(),
    show_neighborhood_on_report: z.boolean(),
    show_social_on_report: z.boolean(),
    show_showings_on_report: z.boolean(),
    show_agent_insights_on_report: z.boolean(),
  })
  .meta({ id: "Report", description: "Every field of a report, without its collections (create and update responses)" });

export const comparable = z
  .object({
    id: z.uuid(),
    address: z.string(),
    city: text(),
    state: text(),
    zip: text(),
    price: num(),
    beds: int(),
    baths: num(),
    sqft: int(),
    distance_miles: num(),
    sale_date: when(),
    status: text(),
    source: text(),
    created_at: dateTime(),
  })
  .meta({ id: "ComparableProperty" });

export const showing = z
  .object({
    id: z.uuid(),
    service_id: z.uuid(),
    report_id: z.uuid(),
    showing_date: when(),
    scheduled_date: when(),
    attendee_name: text(),
    attendee_email: text(),
    attendee_phone: text(),
    agent_name: text(),
    feedback: text(),
    rating: int(),
    interested: z.boolean().nullable(),
    event_type: z.enum(["showing", "open_house"]),
    title: text(),
    attendees_count: int(),
    unique_showing_key: text(),
    showing_time_start: when(),
    showing_time_end: when(),
    created_at: dateTime(),
    updated_at: dateTime(),
  })
  .meta({ id: "Showing" });

export const socialMediaPost = z
  .object({
    id: z.uuid(),
    platform: z.string(),
    external_id: text(),
    url: text(),
    caption: text(),
    posted_at: when(),
    likes: z.int(),
    comments: z.int(),
    shares: z.int(),
    views: z.int(),
  })
  .meta({ id: "SocialMediaPost" });

export const agentInsight = z
  .object({ id: z.uuid(), author: z.string(), title: text(), body: z.string(), category: text(), created_at: dateTime() })
  .meta({ id: "AgentInsight" });

const omittedWithout = (permission: string) => ({ description: `Left out when the key lacks ${permission}` });
export const reportDetail = report
  .extend({
    comparable_properties: z.array(comparable).optional().meta(omittedWithout("comparables:read")),
    showing_events: z.array(showing).optional().meta(omittedWithout("showings:read")),
    social_media_posts: z.array(socialMediaPost).optional().meta(omittedWithout("social_media:read")),
    agent_insights: z.array(agentInsight).optional().meta(omittedWithout("ai_insights:read")),
  })
  .meta({ id: "ReportDetail", description: "A report with its collections (get and address search)" });

// ---- envelopes ----

export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema });
export const mutationOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema, message: z.string() });
export const pageOf = <T extends z.ZodType>(schema: T) => z.object({ data: z.array(schema), total: z.int(), limit: z.int(), offset: z.int() });
export const messageOnly = z.object({ message: z.string() }).meta({ id: "Message" });
export const errorBody = z
  .object({ error: z.object({ message: z.string(), status: z.int().meta({ description: "Equal to the HTTP status" }) }) })
  .meta({ id: "Error" });

export const currentUser = z
  .object({
    team: z.object({ id: z.uuid(), name: z.string(), created_at: dateTime(), member_count: z.int(), reports_count: z.int() }),
    subscription: z.object({
      plan: z.string(),
      status: z.string(),
      api_usage: z.object({ calls_this_month: z.int(), resets_at: dateTime() }),
    }),
    api_key: z.object({
      name: z.string(),
      prefix: z.string().meta({ description: "The first 16 characters of the key" }),
      permissions: z.record(z.string(), z.array(z.string())).meta({ description: "Resource name → allowed actions" }),
      rate_limit_tier: z.string(),
      last_used_at: when(),
      created_at: dateTime(),
    }),
    rate_limit: z.object({ tier: z.string(), remaining: z.int(), resets_at: dateTime() }).nullable(),
  })
  .meta({ id: "CurrentUser" });
