// The SocialMediaPost object type (fields from the field table) and its queries: one by id, a report's list
// (newest posted_at first, optionally of one platform), delete. Posts are written by the import (./import.ts).
import { prisma } from "../../../db";
import { builder } from "../../builder";
import { badField } from "../../errors";
import { objectFields } from "../../fields";
import { reportItems } from "../report-items";
import { PLATFORMS } from "./fields";
import { socialPostFields } from "./fields";
import { platformOf } from "./import-items";

builder.prismaObject("SocialMediaPost", {
  description: "A social media post promoting a report, with its engagement counts.",
  fields: (t) => objectFields(socialPostFields, t),
});

export const SOCIAL_POST_NOT_FOUND = "Social media post not found";

reportItems({
  type: "SocialMediaPost",
  noun: "social media post",
  one: "socialMediaPost",
  many: "socialMediaPosts",
  resource: "social_media",
  table: socialPostFields,
  items: () => prisma.socialMediaPost,
  notFound: SOCIAL_POST_NOT_FOUND,
  writable: false,
  order: { orderBy: [{ postedAt: { sort: "desc", nulls: "last" } }, { id: "asc" }], words: "newest posted_at first" },
  filter: {
    name: "platform",
    description: `Only the posts of this platform (${PLATFORMS.join(", ")}; twitter is x; any case)`,
    where: (value) => {
      const platform = platformOf(value);
      if (!platform) throw badField(["platform"], `must be one of: ${PLATFORMS.join(", ")}`);
      return { platform };
    },
  },
});
