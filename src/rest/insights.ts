// /v1/reports/{reportId}/insights (list, add) and /v1/insights/{id} (get, update, delete).
import { insightFields } from "../schema/resources/insight/fields";
import { reportItemRoutes } from "./report-items";
import * as s from "./schemas";

export const insightRoutes = reportItemRoutes({
  type: "AgentInsight",
  one: "agentInsight",
  many: "agentInsights",
  path: "insights",
  param: "insightId",
  label: "Insight",
  table: insightFields,
  tag: "Insights",
  noun: "insight",
  nouns: "insights",
  op: "Insight",
  response: s.agentInsight,
  create: s.createInsightBody,
  update: s.updateInsightBody,
});
