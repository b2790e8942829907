// Every field of a social media post, once (DECISIONS "Social media posts and engagement import"). Posts are
// written only by the import, whose records use the REST names (import-items.ts checks them).
import type { FieldSpec, FieldTable } from "../../fields";

export const PLATFORMS = ["instagram", "facebook", "tiktok", "x", "linkedin", "youtube", "other"] as const;
export type Platform = (typeof PLATFORMS)[number];
export const COUNTS = ["likes", "comments", "shares", "saves", "views", "reach"] as const;
export type CountName = (typeof COUNTS)[number];

/** A count (up to 2^53 - 1, a bigint column) as a JSON number; null when the platform gave none. */
const count = (rest: CountName, description: string) => {
  const value = (post: Record<CountName, bigint | null>) => (post[rest] === null ? null : Number(post[rest]));
  return {
    type: "SafeInt",
    rest,
    nullable: true,
    description,
    value,
    build: (t, text) => t.field({ type: "SafeInt", nullable: true, description: text, resolve: value }),
    sql: (p: string) => `${p}.${rest}`, // a bigint is a JSON number in PostgreSQL's json too
  } satisfies FieldSpec;
};

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
