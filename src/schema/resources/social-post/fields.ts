// Every field of a social media post, once (docs/api.md "Social media posts and engagement import"). Posts are
// written only by the import, whose records use the REST names (import-items.ts checks them).
import { bigintNumber } from "../../computed";
import type { FieldSpec, FieldTable } from "../../fields";

export const PLATFORMS = ["instagram", "facebook", "tiktok", "x", "linkedin", "youtube", "other"] as const;
export type Platform = (typeof PLATFORMS)[number];
export const COUNTS = ["likes", "comments", "shares", "saves", "views", "reach"] as const;
export type CountName = (typeof COUNTS)[number];

/** A count (up to 2^53 - 1, a bigint column) as a JSON number; null when the platform gave none. */
const count = (name: CountName, description: string) =>
  ({ type: "SafeInt", rest: name, nullable: true, description, ...bigintNumber(name, true) }) satisfies FieldSpec;

export const socialPostFields = {
  id: { type: "ID", rest: "id", description: "The post's id (a UUID)" },
  reportId: { type: "ID", rest: "report_id", description: "The report it promotes (a UUID)" },
  platform: { type: "String", rest: "platform", description: "instagram, facebook, tiktok, x, linkedin, youtube or other" },
  externalId: { type: "String", rest: "external_id", description: "The platform's post id (unique per report and platform)" },
  url: { type: "String", rest: "url", nullable: true, description: "Link to the post" },
  caption: { type: "String", rest: "caption", nullable: true, description: "Caption (at most 5,000 characters)" },
  postedAt: { type: "DateTime", rest: "posted_at", nullable: true, description: "When it was posted" },
  likes: count("likes", "Likes"),
  comments: count("comments", "Comments"),
  shares: count("shares", "Shares"),
  saves: count("saves", "Saves"),
  views: count("views", "Views"),
  reach: count("reach", "Accounts reached"),
  metricsAt: { type: "DateTime", rest: "metrics_at", description: "When the counts were read" },
  createdAt: { type: "DateTime", rest: "created_at", description: "When the post was first imported" },
  updatedAt: { type: "DateTime", rest: "updated_at", description: "When an import last changed it" },
} satisfies FieldTable;
