// /v1/reports/{reportId}/insights (list, add) and /v1/insights/{id} (get, update, delete).
import type { Router } from "express";
import { insightFields } from "../schema/resources/insight/fields";
import { reportItemsRouter } from "./report-items";

export const insightsRouter = (): Router =>
  reportItemsRouter({ type: "AgentInsight", one: "agentInsight", many: "agentInsights", path: "insights", param: "insightId", label: "Insight", table: insightFields });
