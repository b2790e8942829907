// REST (snake_case, spec.md) ↔ GraphQL (camelCase) names of the fields a client sends. One table per resource;
// the route schemas, the input mapping and the translation of GraphQL error messages all read these.

/** REST body field → GraphQL input field, for report create/update. */
export const reportInputNames = {
  address: "address",
  city: "city",
  state: "state",
  zip: "zip",
  price: "price",
  beds: "beds",
  baths: "baths",
  sqft: "sqft",
  year_built: "yearBuilt",
  lot_size: "lotSize",
  property_type: "propertyType",
  description: "description",
  executive_summary: "executiveSummary",
  listing_agent: "listingAgent",
  created_by: "createdBy",
  custom_agent_name: "customAgentName",
  custom_agent_email: "customAgentEmail",
  portal_property_id: "portalPropertyId",
  portal_url: "portalUrl",
  mls_id: "mlsId",
  primary_color: "primaryColor",
  secondary_color: "secondaryColor",
  status: "status",
  is_draft: "isDraft",
  show_comps_on_report: "showComps",
  show_neighborhood_on_report: "showNeighborhood",
  show_social_media_on_report: "showSocial",
  show_showings_on_report: "showShowings",
  show_agent_insights_on_report: "showAgentInsights",
} as const;

/** REST body field → GraphQL input field, for showing create/update. */
export const showingInputNames = {
  report_id: "reportId",
  showing_date: "showingDate",
  scheduled_date: "scheduledDate",
  attendee_name: "attendeeName",
  attendee_email: "attendeeEmail",
  attendee_phone: "attendeePhone",
  agent_name: "agentName",
  feedback: "feedback",
  rating: "rating",
  interested: "interested",
  event_type: "eventType",
  title: "title",
  attendees_count: "attendeesCount",
  unique_showing_key: "uniqueShowingKey",
  showing_time_start: "showingTimeStart",
  showing_time_end: "showingTimeEnd",
} as const;

/** Second spellings a body may use (DECISIONS "Names and aliases"): alias → spec name. The spec name wins. */
export const reportAliases = {
  bedrooms: "beds",
  bathrooms: "baths",
  square_feet: "sqft",
  show_social_on_report: "show_social_media_on_report",
} as const;

/** The body without the aliases whose spec name is also sent (the spec name wins, the alias is not even checked). */
export function withoutShadowedAliases(body: Record<string, unknown>, aliases: Record<string, string>): Record<string, unknown> {
  const out = { ...body };
  for (const [alias, name] of Object.entries(aliases)) if (alias in out && name in out) delete out[alias];
  return out;
}

/** A checked body with its aliases renamed to their spec names. */
export function renameAliases(body: Record<string, unknown>, aliases: Record<string, string>): Record<string, unknown> {
  const out = { ...body };
  for (const [alias, name] of Object.entries(aliases)) {
    if (!(alias in out)) continue;
    if (out[name] === undefined) out[name] = out[alias];
    delete out[alias];
  }
  return out;
}

/** A parsed REST body as the GraphQL input: only the fields present, under their GraphQL names. */
export function toGraphQLInput(body: Record<string, unknown>, names: Record<string, string>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [rest, gql] of Object.entries(names)) if (body[rest] !== undefined) input[gql] = body[rest];
  return input;
}

// GraphQL name → REST name, for messages. Every REST name of the tables, and the spellings of list arguments.
const restNameOf = new Map<string, string>([
  ...Object.entries(reportInputNames).map(([rest, gql]) => [gql, rest] as const),
  ...Object.entries(showingInputNames).map(([rest, gql]) => [gql, rest] as const),
  ["reportId", "report_id"],
]);

/** A GraphQL error message in REST words: camelCase field names become the snake_case names of spec.md.
 *  Quoted text is the client's own input ('…') and stays as it is. */
export function toRestMessage(message: string): string {
  return message.replace(/'[^']*'|\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g, (word) => restNameOf.get(word) ?? word);
}
