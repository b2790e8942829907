import { builder } from "../../builder";
import { objectFields } from "../../fields";
import { socialPostFields } from "./fields";

builder.prismaObject("SocialMediaPost", {
  description: "A social media post about a report's property, with its engagement counts.",
  fields: (t) => objectFields(socialPostFields, t),
});
