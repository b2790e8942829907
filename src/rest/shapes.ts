// The GraphQL selections of the REST responses. Each field is selected under its REST name (a GraphQL alias), so
// an operation's result already is the body of spec.md and is sent as it is: no second copy of every item per
// request (BENCHMARKS.md, scenario 1). The fields and their order are those of the zod response schemas in
// ./schemas, which also describe the bodies in the OpenAPI document; only GraphQL names that are not the camelCase
// of the REST name are written here.
import type { z } from "zod";
import { agentInsight, comparable, report, reportDetail, reportSummary, showing, socialMediaPost } from "./schemas";

const camelCase = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** `rest_name: graphqlName` for every field of a response schema, in its order; `nested` holds sub-selections. */
function selection(schema: z.ZodObject, renames: Record<string, string> = {}, nested: Record<string, string> = {}): string {
  return Object.keys(schema.shape)
    .map((name) => {
      const field = renames[name] ?? camelCase(name);
      const aliased = field === name ? name : `${name}: ${field}`;
      return nested[name] ? `${aliased} { ${nested[name]} }` : aliased;
    })
    .join(" ");
}

/** The sample names (DECISIONS "Names and aliases") and the display switches, whose GraphQL names are shorter. */
const REPORT_NAMES = {
  bedrooms: "beds",
  bathrooms: "baths",
  square_feet: "sqft",
  date_created: "createdAt",
  show_comps_on_report: "showComps",
  show_neighborhood_on_report: "showNeighborhood",
  show_social_on_report: "showSocial",
  show_showings_on_report: "showShowings",
  show_agent_insights_on_report: "showAgentInsights",
  comparable_properties: "comparables",
  showing_events: "showings",
};

export const SUMMARY_FIELDS = selection(reportSummary, REPORT_NAMES);

export const REPORT_FRAGMENT = `fragment RestReport on Report { ${selection(report, REPORT_NAMES)} }`;

export const SHOWING_FRAGMENT = `fragment RestShowing on Showing { ${selection(showing)} }`;

export const DETAIL_FRAGMENT = `fragment RestReportDetail on Report {
  ${selection(reportDetail, REPORT_NAMES, {
    comparable_properties: selection(comparable),
    showing_events: "...RestShowing",
    social_media_posts: selection(socialMediaPost),
    agent_insights: selection(agentInsight),
  })}
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
