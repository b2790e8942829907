// Every field of an agent insight, once (docs/api.md "Agent insights").
import { enumSpec, type FieldTable } from "../../fields";
import { label, nonBlank, text } from "../../rules";

export const InsightCategory = enumSpec(
  "InsightCategory",
  ["market", "pricing", "neighborhood", "property", "showing_feedback", "marketing", "other"] as const,
  "What an insight is about (default other)",
);
export const InsightSource = enumSpec("InsightSource", ["agent", "ai"] as const, "agent: written through the API; ai: generated");

export const insightFields = {
  id: { type: "ID", rest: "id", description: "The insight's id (a UUID)" },
  reportId: { type: "ID", rest: "report_id", description: "The report it is about (a UUID)" },
  title: { type: "String", rest: "title", rule: text(200), nullable: true, create: "optional", update: true, description: "Title (at most 200 characters)", example: "Priced to sell" },
  body: { type: "String", rest: "body", rule: nonBlank(20000), create: "required", update: true, description: "The insight's text (at most 20,000 characters)", example: "Three pending sales on this street closed above list." },
  category: { type: InsightCategory, rest: "category", create: "optional", update: true, description: "market, pricing, neighborhood, property, showing_feedback, marketing or other (default)" },
  author: { type: "String", rest: "author", rule: label(), create: "optional", update: true, onNull: "ignore", description: "Who wrote it; defaults to the team's admin", example: "Dana Agent" },
  source: { type: InsightSource, rest: "source", description: "agent when written through the API, ai when generated (read-only)" },
  createdAt: { type: "DateTime", rest: "created_at", description: "When it was written" },
  updatedAt: { type: "DateTime", rest: "updated_at", description: "When it last changed" },
} satisfies FieldTable;
