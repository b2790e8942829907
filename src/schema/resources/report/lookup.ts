// Finding a report of the key's team by id: the first step of everything attached to a report.
import { prisma } from "../../../db";
import { notFound } from "../../errors";
import { isUuid } from "../../scope";

export const REPORT_NOT_FOUND = "Report not found";

/** The id of the team's report `id`, or a 404 `Report not found` (unknown, another team's, or not a UUID). */
export async function reportIdOfTeam(teamId: string, id: string): Promise<string> {
  const report = isUuid(id) ? await prisma.report.findFirst({ where: { id, teamId }, select: { id: true } }) : null;
  if (!report) throw notFound(REPORT_NOT_FOUND);
  return report.id;
}
