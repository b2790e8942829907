// Every field of a report, once: GraphQL name (the key), REST name, type, rule, create/update, description.
import { z } from "zod";
import { equals, relationCount } from "../../computed";
import { enumSpec, type FieldTable } from "../../fields";
import { amount, count, email, hexColor, string, text, uuid, yearBuilt } from "../../rules";

export const ReportStatus = enumSpec("ReportStatus", ["draft", "published"] as const, "Publication state of a report");

const ADDRESS_REQUIRED = "Address is required";
/** A street address: required, not blank, at most 1,000 characters (also the address search's input). */
export const addressRule = z
  .string({ error: (issue) => (issue.input == null ? ADDRESS_REQUIRED : undefined) })
  .pipe(string())
  .pipe(z.string().trim().min(1, { error: ADDRESS_REQUIRED }).max(1000));

const both = { create: "optional", update: true } as const;

const toggle = (rest: string, restInput: string, description: string) =>
  ({ type: "Boolean", rest, restInput, description, create: "optional", update: true, detailOnly: true }) as const;

export const reportFields = {
  id: { type: "ID", rest: "id", description: "The report's id (a UUID)" },
  address: { type: "String", rest: "address", description: "Street address", rule: addressRule, requiredMessage: ADDRESS_REQUIRED, create: "required", update: true, example: "123 North Main Street" },
  city: { type: "String", rest: "city", nullable: true, rule: text(), ...both, description: "City", example: "Springfield" },
  state: { type: "String", rest: "state", nullable: true, rule: text(), ...both, description: "State or region", example: "IL" },
  zip: { type: "String", rest: "zip", nullable: true, rule: text(), ...both, description: "Postal code (a string)", example: "62704" },
  price: { type: "Float", rest: "price", nullable: true, rule: amount(), ...both, description: "List price in dollars", example: 350000 },
  beds: { type: "Int", rest: "beds", aliases: ["bedrooms"], sampleName: "bedrooms", nullable: true, rule: count(), ...both, description: "Bedrooms", example: 3 },
  baths: { type: "Float", rest: "baths", aliases: ["bathrooms"], sampleName: "bathrooms", nullable: true, rule: amount(), ...both, description: "Bathrooms (halves allowed)", example: 2.5 },
  sqft: { type: "Int", rest: "sqft", aliases: ["square_feet"], sampleName: "square_feet", nullable: true, rule: count(), ...both, description: "Living area in square feet", example: 1850 },
  yearBuilt: { type: "Int", rest: "year_built", nullable: true, rule: yearBuilt(), ...both, description: "Year built, 1600 to the current year + 5", example: 1998 },
  propertyType: { type: "String", rest: "property_type", nullable: true, rule: text(), ...both, description: "Property type, e.g. single_family", example: "single_family" },
  status: { type: ReportStatus, rest: "status", update: true, description: "draft or published; changing it needs reports:publish" },
  isPublished: {
    type: "Boolean",
    rest: "is_published",
    description: "true when status is published",
    ...equals("status", "published"),
  },
  isDraft: {
    type: "Boolean",
    rest: "is_draft",
    update: true,
    description: "true when status is draft; false publishes, true unpublishes (needs reports:publish)",
    ...equals("status", "draft"),
  },
  publishedAt: { type: "DateTime", rest: "published_at", nullable: true, description: "When the report was first published" },
  viewsCount: { type: "Int", rest: "views_count", description: "Views of the published report" },
  savesCount: { type: "Int", rest: "saves_count", description: "Saves of the published report" },
  showingsCount: {
    type: "Int",
    rest: "showings_count",
    description: "Number of showings and open houses of the report",
    ...relationCount("showings"), // reportRecord (../payloads.ts) reads the row with _count.showings
  },
  createdAt: { type: "DateTime", rest: "created_at", sampleName: "date_created", description: "When the report was created" },
  updatedAt: { type: "DateTime", rest: "updated_at", description: "When the report last changed" },
  description: { type: "String", rest: "description", nullable: true, rule: text(20000), ...both, detailOnly: true, description: "Narrative description (at most 20,000 characters)" },
  lotSize: { type: "Float", rest: "lot_size", nullable: true, rule: amount(), ...both, detailOnly: true, description: "Lot size", example: 0.25 },
  portalUrl: { type: "String", rest: "portal_url", nullable: true, rule: text(), ...both, detailOnly: true, description: "The listing's page on a portal" },
  portalPropertyId: { type: "String", rest: "portal_property_id", nullable: true, rule: text(), ...both, detailOnly: true, description: "The property's id on a portal" },
  mlsId: { type: "String", rest: "mls_id", nullable: true, rule: text(), ...both, detailOnly: true, description: "MLS listing number" },
  listingAgent: { type: "String", rest: "listing_agent", rule: text(), ...both, onNull: "ignore", detailOnly: true, description: "Listing agent; defaults to the team's admin" },
  createdBy: { type: "String", rest: "created_by", rule: text(), ...both, onNull: "ignore", detailOnly: true, description: "Author; defaults to the team's name" },
  customAgentName: { type: "String", rest: "custom_agent_name", nullable: true, rule: text(), ...both, detailOnly: true, description: "Agent name shown on the report" },
  customAgentEmail: { type: "String", rest: "custom_agent_email", nullable: true, rule: email(), ...both, detailOnly: true, description: "Agent e-mail shown on the report", example: "agent@example.com" },
  agentPhone: { type: "String", rest: "agent_phone", nullable: true, rule: text(100), ...both, detailOnly: true, description: "Agent phone number shown on the report (at most 100 characters); the public page links it with tel:", example: "+1 (217) 555-0107" },
  brokerageName: { type: "String", rest: "brokerage_name", nullable: true, rule: text(), ...both, detailOnly: true, description: "Brokerage name shown on the report", example: "Prairie Home Realty" },
  agentPhotoId: { type: "ID", rest: "agent_photo_id", nullable: true, rule: uuid(), update: true, detailOnly: true, description: "The agent's photo on the client's page and PDF: one of this report's own photos (uploaded like the others; left out of the gallery), or null" },
  brokerageLogoId: { type: "ID", rest: "brokerage_logo_id", nullable: true, rule: uuid(), update: true, detailOnly: true, description: "The brokerage's logo on the client's page and PDF: one of this report's own photos (left out of the gallery), or null" },
  agentLicense: { type: "String", rest: "agent_license", nullable: true, rule: text(100), ...both, detailOnly: true, description: "Agent licence number shown on the report (at most 100 characters)", example: "IL 475.123456" },
  primaryColor: { type: "String", rest: "primary_color", nullable: true, rule: hexColor(), ...both, detailOnly: true, description: "Brand colour, #RGB or #RRGGBB", example: "#1A2B3C" },
  secondaryColor: { type: "String", rest: "secondary_color", nullable: true, rule: hexColor(), ...both, detailOnly: true, description: "Second brand colour, #RGB or #RRGGBB", example: "#FFFFFF" },
  executiveSummary: { type: "String", rest: "executive_summary", nullable: true, rule: text(20000), ...both, detailOnly: true, description: "Executive summary (at most 20,000 characters)" },
  showComps: toggle("show_comps_on_report", "show_comps_on_report", "Show the comparables section"),
  showNeighborhood: toggle("show_neighborhood_on_report", "show_neighborhood_on_report", "Show the neighborhood section"),
  showSocial: { ...toggle("show_social_on_report", "show_social_media_on_report", "Show the social media section"), aliases: ["show_social_on_report"] },
  showShowings: toggle("show_showings_on_report", "show_showings_on_report", "Show the showings section"),
  showAgentInsights: toggle("show_agent_insights_on_report", "show_agent_insights_on_report", "Show the agent insights section"),
} satisfies FieldTable;
