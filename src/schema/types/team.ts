// The team (a brokerage) owning reports, showings and keys. Read-only through the API.
import { builder } from "../builder";
import { objectFields, type FieldTable } from "../fields";

export const teamFields = {
  id: { type: "ID", rest: "id", description: "The team's id (a UUID)" },
  name: { type: "String", rest: "name", description: "The team's name" },
  adminName: { type: "String", rest: "admin_name", description: "The team admin's name (default listing agent)" },
  plan: { type: "String", rest: "plan", description: "Subscription plan" },
  subscriptionStatus: { type: "String", rest: "subscription_status", description: "Subscription status, e.g. active" },
  memberCount: { type: "Int", rest: "member_count", description: "Members of the team" },
  reportsCount: {
    type: "Int",
    rest: "reports_count",
    description: "Reports of the team",
    build: (t, description) => t.relationCount("reports", { description }),
  },
  createdAt: { type: "DateTime", rest: "created_at", description: "When the team was created" },
} satisfies FieldTable;

builder.prismaObject("Team", {
  description: "A brokerage team: it owns reports, showings and API keys.",
  fields: (t) => objectFields(teamFields, t),
});
