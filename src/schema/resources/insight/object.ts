// The AgentInsight object type (fields from the field table), its queries and mutations.
import { prisma } from "../../../db";
import type { Tx } from "../../../webhooks/outbox";
import { builder } from "../../builder";
import { objectFields } from "../../fields";
import { reportItems } from "../report-items";
import { insightFields } from "./fields";

builder.prismaObject("AgentInsight", {
  description: "An agent's commentary on a report (or one generated for it).",
  fields: (t) => objectFields(insightFields, t),
});

export const INSIGHT_NOT_FOUND = "Insight not found";

reportItems({
  type: "AgentInsight",
  noun: "agent insight",
  one: "agentInsight",
  many: "agentInsights",
  resource: "ai_insights",
  table: insightFields,
  items: (tx: Tx = prisma) => tx.agentInsight,
  notFound: INSIGHT_NOT_FOUND,
  events: "insight",
  // Written through the API: by an agent, the team's admin unless the input names the author.
  defaults: async (teamId) => {
    const team = await prisma.team.findUniqueOrThrow({ where: { id: teamId }, select: { adminName: true } });
    return { author: team.adminName, source: "agent" };
  },
});
