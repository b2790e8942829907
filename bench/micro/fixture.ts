// The micro-benchmarks' data: a team with one report holding 10 items in each of its four collections.
import { prisma } from "../../src/db";

export async function teamWithNestedReport(name: string) {
  const team = await prisma.team.create({ data: { name, adminName: "A" } });
  const report = await prisma.report.create({
    data: {
      teamId: team.id, address: "1 A St", addressKey: "1 a st", searchKey: "1 a st", listingAgent: "x", createdBy: "y",
      comparables: { create: Array.from({ length: 10 }, (_, j) => ({ address: `${j} C` })) },
      showings: { create: Array.from({ length: 10 }, () => ({})) },
      socialMediaPosts: { create: Array.from({ length: 10 }, (_, j) => ({ platform: "x", externalId: `x-${j}` })) },
      agentInsights: { create: Array.from({ length: 10 }, () => ({ author: "a", body: "b" })) },
    },
  });
  return { team, report };
}
