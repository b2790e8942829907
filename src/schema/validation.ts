// Input rules shared by the GraphQL schema and the REST translators, so both give the same answer with the
// same words. Messages name the field: "<field> must be …" (the REST layer's field names are snake_case,
// GraphQL's camelCase; the name comes from the issue path, so each interface speaks its own names).
import { z } from "zod";

type Issue = { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> };

/** Words for one zod issue, without the field name. */
function describe(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      if (issue.input === null) return "must not be null";
      return `must be ${issue.expected === "int" ? "an integer" : issue.expected === "object" ? "an object" : `a ${issue.expected}`}`;
    case "too_big":
      return issue.origin === "string" ? `must be at most ${issue.maximum} characters` : `must be at most ${issue.maximum}`;
    case "too_small":
      if (issue.origin === "string") return issue.minimum === 1 ? "must not be empty" : `must be at least ${issue.minimum} characters`;
      return `must be at least ${issue.minimum}`;
    case "invalid_format":
      if (issue.format === "email") return "must be a valid e-mail address";
      if (issue.format === "uuid") return "must be a UUID";
      if (issue.format === "datetime") return "must be an ISO 8601 date-time";
      return undefined;
    case "invalid_value":
      return `must be one of: ${issue.values.map(String).join(", ")}`;
    case "not_multiple_of":
      return "must be an integer";
    default:
      return undefined;
  }
}
z.config({ customError: describe });

const fieldName = (issue: Issue): string =>
  (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).filter((p) => p !== "input").pop() ?? "";

/** One sentence for a list of issues: the first problem, with its field name unless the message is complete. */
export function formatIssues(issues: ReadonlyArray<Issue>): string {
  const issue = issues[0];
  if (!issue) return "Invalid request";
  const name = fieldName(issue);
  return /^[A-Z]/.test(issue.message) || !name ? issue.message : `${name} ${issue.message}`;
}

// ---- field rules ----

const text = (max = 1000) => z.string().max(max);
const amount = () => z.number().finite().min(0);
const count = () => z.number().int().min(0);
const hexColor = () => z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { error: "must be a hex colour like #1A2B3C" });
const yearBuilt = () =>
  z
    .number()
    .int()
    .superRefine((year, ctx) => {
      const max = new Date().getUTCFullYear() + 5;
      if (year < 1600 || year > max) ctx.addIssue({ code: "custom", message: `must be between 1600 and ${max}`, input: year });
    });
export const dateTime = () => z.iso.datetime({ offset: true, local: true });
const rating = () => z.number().int().min(1).max(5);
export const email = () => z.email().max(320);

/** Report fields that may be set, in GraphQL (camelCase) names. Optional fields accept null (= clear). */
export const reportFieldRules = {
  address: z.string().trim().min(1).max(1000),
  city: text().nullish(),
  state: text().nullish(),
  zip: text().nullish(),
  price: amount().nullish(),
  beds: count().nullish(),
  baths: amount().nullish(),
  sqft: count().nullish(),
  yearBuilt: yearBuilt().nullish(),
  lotSize: amount().nullish(),
  propertyType: text().nullish(),
  description: text(20000).nullish(),
  executiveSummary: text(20000).nullish(),
  listingAgent: text().nullish(),
  createdBy: text().nullish(),
  customAgentName: text().nullish(),
  customAgentEmail: email().nullish(),
  portalPropertyId: text().nullish(),
  portalUrl: text().nullish(),
  mlsId: text().nullish(),
  primaryColor: hexColor().nullish(),
  secondaryColor: hexColor().nullish(),
  status: z.enum(["draft", "published"]),
  isDraft: z.boolean(),
  showComps: z.boolean(),
  showNeighborhood: z.boolean(),
  showSocial: z.boolean(),
  showShowings: z.boolean(),
  showAgentInsights: z.boolean(),
} as const;

/** Showing fields that may be set, in GraphQL names. */
export const showingFieldRules = {
  reportId: z.uuid(),
  showingDate: dateTime().nullish(),
  scheduledDate: dateTime().nullish(),
  attendeeName: text().nullish(),
  attendeeEmail: email().nullish(),
  attendeePhone: text().nullish(),
  agentName: text().nullish(),
  feedback: text(20000).nullish(),
  rating: rating().nullish(),
  interested: z.boolean().nullish(),
  eventType: z.enum(["showing", "open_house"]),
  title: text().nullish(),
  attendeesCount: count().nullish(),
  uniqueShowingKey: z.string().trim().min(1).max(255).nullish(),
  showingTimeStart: dateTime().nullish(),
  showingTimeEnd: dateTime().nullish(),
} as const;

/** showing_time_end must not be before showing_time_start (when both are known). */
export function checkShowingWindow(start: Date | string | null | undefined, end: Date | string | null | undefined): string | null {
  if (!start || !end) return null;
  return new Date(end).getTime() < new Date(start).getTime() ? "showingTimeEnd must not be before showingTimeStart" : null;
}
