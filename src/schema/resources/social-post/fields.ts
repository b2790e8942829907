// Every field of a social media post, once (read-only until the engagement import exists).
import type { FieldTable } from "../../fields";

export const socialPostFields = {
  id: { type: "ID", rest: "id", description: "The post's id (a UUID)" },
  platform: { type: "String", rest: "platform", description: "instagram, facebook, tiktok, x, linkedin, youtube or other" },
  externalId: { type: "String", rest: "external_id", nullable: true, description: "The platform's post id" },
  url: { type: "String", rest: "url", nullable: true, description: "Link to the post" },
  caption: { type: "String", rest: "caption", nullable: true, description: "Caption" },
  postedAt: { type: "DateTime", rest: "posted_at", nullable: true, description: "When it was posted" },
  likes: { type: "Int", rest: "likes", description: "Likes" },
  comments: { type: "Int", rest: "comments", description: "Comments" },
  shares: { type: "Int", rest: "shares", description: "Shares" },
  views: { type: "Int", rest: "views", description: "Views" },
} satisfies FieldTable;
