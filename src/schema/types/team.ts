import { builder } from "../builder";

builder.prismaObject("Team", {
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    adminName: t.exposeString("adminName"),
    plan: t.exposeString("plan"),
    subscriptionStatus: t.exposeString("subscriptionStatus"),
    memberCount: t.exposeInt("memberCount"),
    reportsCount: t.relationCount("reports"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});
