// The route template a request calls, known before Express routes it (the auth step records a key's last use):
// a path of the route table (/v1/reports/{reportId}, as the OpenAPI document writes it), /graphql, or "unmatched" —
// never the raw path, which may hold ids or a client's typing. The dashboard's own requests say so in a header
// (DASHBOARD_CLIENT) and are counted as "/graphql (dashboard)" (or "/v1/usage (dashboard)"), so a team sees them
// apart from its integrations' — a label only: they count against the key's limits and the month like any other.
import type { Request } from "express";
import { pathPattern } from "./route";
import { ROUTES } from "./table";

/** The header the dashboard sends with its own requests (dashboard/src/graphql.ts, dashboard/src/live.ts). */
export const DASHBOARD_CLIENT = { header: "x-prs-client", value: "dashboard" } as const;

let templates: { pattern: RegExp; template: string }[] | undefined;

function compiled() {
  templates ??= [...new Set(ROUTES.map((route) => route.path))]
    .map((template) => ({
      template,
      pattern: new RegExp(`^${pathPattern(template, "[^/]+")}/?$`),
      // Literal segments first: /v1/webhooks/event-types before /v1/webhooks/{webhookId}.
      params: (template.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.params - b.params);
  return templates;
}

/** The template of the request's path (see above), from its URL as it came (a router strips its mount from req.path). */
export function routeTemplate(req: Request): string {
  const path = req.originalUrl.split("?")[0];
  const template = path === "/graphql" ? path : (compiled().find(({ pattern }) => pattern.test(path))?.template ?? "unmatched");
  return req.get(DASHBOARD_CLIENT.header) === DASHBOARD_CLIENT.value ? `${template} (dashboard)` : template;
}
