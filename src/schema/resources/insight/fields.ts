// Every field of an agent insight, once (read-only until insights become writable).
import type { FieldTable } from "../../fields";

export const insightFields = {
  id: { type: "ID", rest: "id", description: "The insight's id (a UUID)" },
  author: { type: "String", rest: "author", description: "Who wrote it" },
  title: { type: "String", rest: "title", nullable: true, description: "Title" },
  body: { type: "String", rest: "body", description: "The insight's text" },
  category: { type: "String", rest: "category", nullable: true, description: "Category, e.g. market or pricing" },
  createdAt: { type: "DateTime", rest: "created_at", description: "When it was written" },
} satisfies FieldTable;
