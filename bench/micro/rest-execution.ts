// CPU per call of the REST report-detail operation: graphql-js vs graphql-jit vs one Prisma call with the same
// includes. Creates a team and a report in the configured database.  NODE_ENV=production tsx bench/micro/rest-execution.ts
import { execute } from "graphql";
import { compileQuery, isCompiledQuery } from "graphql-jit";
import type { Permissions } from "../../src/auth/permissions";
import { database, prisma } from "../../src/db";
import { teamWithNestedReport } from "./fixture";
import { schema } from "../../src/schema";
import { operation } from "../../src/rest/graphql";
import { DETAIL_FRAGMENT } from "../../src/rest/shapes";

(async () => {
  await database.migrate();
  const { team, report: r } = await teamWithNestedReport("T");
  const ctx = { viewer: { keyId: "k", keyPrefix: "prs_sk_live_k", teamId: team.id, permissions: { reports: ["read"], comparables: ["read"], showings: ["read"], social_media: ["read"], ai_insights: ["read"] } as Permissions, tier: "standard" }, rateLimit: null };
  const op = operation(`query RestReport($id: ID!) { report(id: $id) { ...RestReportDetail } } ${DETAIL_FRAGMENT}`);
  const compiled = compileQuery(schema, op.document);
  if (!isCompiledQuery(compiled)) throw new Error("no compile");
  const N = 400;
  const time = async (label: string, fn: () => Promise<unknown>) => {
    for (let i = 0; i < 50; i++) await fn();
    const c0 = process.cpuUsage(); const t0 = Date.now();
    for (let i = 0; i < N; i++) await fn();
    const c = process.cpuUsage(c0);
    console.log(label, ((c.user + c.system) / 1000 / N).toFixed(3), "ms cpu/call", ((Date.now() - t0) / N).toFixed(3), "ms wall");
  };
  const res = await execute({ schema, document: op.document, variableValues: { id: r.id }, contextValue: ctx });
  if (res.errors) throw res.errors[0];
  const jr = await compiled.query(undefined, ctx, { id: r.id });
  if (jr.errors) throw jr.errors[0];
  if (JSON.stringify(jr.data) !== JSON.stringify(res.data)) console.log("DIFFERENT", JSON.stringify(jr.data).slice(0, 300));
  for (let k = 0; k < (process.env.ONLY_JS ? 1 : 2); k++) {
    await time("graphql-js ", () => execute({ schema, document: op.document, variableValues: { id: r.id }, contextValue: ctx }) as Promise<unknown>);
    await time("graphql-jit", () => compiled.query(undefined, ctx, { id: r.id }) as Promise<unknown>);
    await time("prisma     ", () => prisma.report.findFirst({ where: { id: r.id, teamId: team.id }, include: { comparables: true, showings: true, socialMediaPosts: true, agentInsights: true, _count: { select: { showings: true } } } }));
  }
  process.exit(0);
})();
