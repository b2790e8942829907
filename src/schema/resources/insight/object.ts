import { builder } from "../../builder";
import { objectFields } from "../../fields";
import { insightFields } from "./fields";

builder.prismaObject("AgentInsight", {
  description: "An agent's commentary on a report.",
  fields: (t) => objectFields(insightFields, t),
});
