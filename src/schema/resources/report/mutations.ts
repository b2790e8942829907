// Report mutations: create (as a draft), update (publishing is a rule of its own), delete.
import { randomUUID } from "node:crypto";
import { recordAudit } from "../../../audit/log";
import { prisma } from "../../../db";
import type { Prisma } from "../../../generated/prisma/client";
import { normalizeAddress, normalizeFullAddress } from "../../address";
import { builder } from "../../builder";
import { badField, badFields, isRowGone, notFound } from "../../errors";
import { inputType, withoutNulls } from "../../fields";
import { recordSummaryFacts } from "../summary/facts";
import { isUuid, requirePermission, teamIdOf } from "../../scope";
import { recordEvent, withEvents } from "../../../webhooks/outbox";
import { reportRecord } from "../payloads";
import { reportFields } from "./fields";
import { REPORT_NOT_FOUND } from "./lookup";
import { needs } from "../../needs";

const CreateReportInput = inputType("CreateReportInput", reportFields, "create", "A new report; it starts as a draft.");
const UpdateReportInput = inputType(
  "UpdateReportInput",
  reportFields,
  "update",
  "Only the fields given are changed. status/isDraft publish or unpublish (needs reports:publish).",
);

/** The status an update asks for, or undefined when it does not touch it. Contradictions are a 400. */
function requestedStatus(input: { status?: "draft" | "published" | null; isDraft?: boolean | null }) {
  const fromFlag = input.isDraft == null ? undefined : input.isDraft ? "draft" : "published";
  const fromStatus = input.status ?? undefined;
  if (fromFlag && fromStatus && fromFlag !== fromStatus) {
    throw badFields((name) => `${name(["status"])} '${fromStatus}' contradicts ${name(["isDraft"])} ${String(input.isDraft)}`, ["status"]);
  }
  return fromStatus ?? fromFlag;
}

type AddressParts = { address: string; city: string | null; state: string | null; zip: string | null };

/** The search keys of a report whose address changes (any part of it given), else nothing. */
function addressKeys(current: AddressParts, input: { address?: string | null; city?: string | null; state?: string | null; zip?: string | null }) {
  if (input.address == null && input.city === undefined && input.state === undefined && input.zip === undefined) return {};
  const merged = {
    address: input.address ?? current.address,
    city: input.city === undefined ? current.city : input.city,
    state: input.state === undefined ? current.state : input.state,
    zip: input.zip === undefined ? current.zip : input.zip,
  };
  return { addressKey: normalizeAddress(merged.address), searchKey: normalizeFullAddress(merged) };
}

/**
 * The agent's photo and the brokerage's logo are photos of this report itself — not a comparable's, not another
 * report's. Each is locked (FOR SHARE) until the update commits, so a photo deleted meanwhile cannot be pointed at.
 */
async function checkBrandingPhotos(tx: Prisma.TransactionClient, teamId: string, reportId: string, input: { agentPhotoId?: string | null; brokerageLogoId?: string | null }) {
  for (const field of ["agentPhotoId", "brokerageLogoId"] as const) {
    const photoId = input[field];
    if (photoId == null) continue;
    const [own] = await tx.$queryRaw<unknown[]>`
      SELECT 1 FROM photos WHERE id = ${photoId}::uuid AND report_id = ${reportId}::uuid AND team_id = ${teamId}::uuid AND comparable_id IS NULL FOR SHARE`;
    if (!own) throw badField(["input", field], "must be the id of one of this report's own photos (not a comparable's)");
  }
}

builder.mutationFields((t) => ({
  createReport: t.prismaField({
    type: "Report",
    ...needs("reports:create", "Creates a draft report. listingAgent defaults to the team's admin, createdBy to the team's name."),
    args: { input: t.arg({ type: CreateReportInput, required: true, description: "The new report" }) },
    resolve: async (query, _root, { input }, ctx) => {
      const teamId = teamIdOf(ctx);
      const team = await prisma.team.findUniqueOrThrow({ where: { id: teamId }, select: { name: true, adminName: true } });
      const id = randomUUID();
      // The display switches refuse null (their rule); the type allows it, so a left-out switch keeps its default.
      const { showComps, showNeighborhood, showSocial, showShowings, showAgentInsights, ...fields } = input;
      return withEvents(async (tx) => {
        const report = await tx.report.create({
          ...query,
          data: {
            ...fields,
            ...withoutNulls({ showComps, showNeighborhood, showSocial, showShowings, showAgentInsights }),
            id,
            listingAgent: input.listingAgent ?? team.adminName,
            createdBy: input.createdBy ?? team.name,
            addressKey: normalizeAddress(input.address),
            searchKey: normalizeFullAddress(input),
            status: "draft",
            teamId,
          },
        });
        const record = await reportRecord(tx, id);
        await recordEvent(tx, teamId, "report.created", record);
        await recordAudit(tx, ctx, { teamId, action: "report.created", target: { type: "report", id }, before: null, after: record });
        return report;
      }).then(async (report) => {
        if (input.executiveSummary) await recordSummaryFacts(teamId, id, input.executiveSummary);
        return report;
      });
    },
  }),
  updateReport: t.prismaField({
    type: "Report",
    ...needs("reports:update", "Changes the given fields of a report.", "(and reports:publish to change its status)"),
    args: { id: t.arg.id({ required: true, description: "The report's id" }), input: t.arg({ type: UpdateReportInput, required: true, description: "The fields to change" }) },
    resolve: async (query, _root, { id, input }, ctx) => {
      const teamId = teamIdOf(ctx);
      const current = isUuid(String(id))
        ? await prisma.report.findFirst({
            where: { id: String(id), teamId },
            select: { address: true, city: true, state: true, zip: true, status: true, publishedAt: true },
          })
        : null;
      if (!current) throw notFound(REPORT_NOT_FOUND);

      // Columns that always hold a value ignore null (the input's rule already refused it where null is an error).
      const { status: _s, isDraft: _d, address, listingAgent, createdBy, showComps, showNeighborhood, showSocial, showShowings, showAgentInsights, ...clearable } =
        input;
      const data: Prisma.ReportUpdateInput = {
        ...clearable,
        ...withoutNulls({ address, listingAgent, createdBy, showComps, showNeighborhood, showSocial, showShowings, showAgentInsights }),
      };

      const target = requestedStatus(input);
      if (target && target !== current.status) {
        requirePermission(ctx, "reports:publish");
        data.status = target;
        if (target === "published" && !current.publishedAt) data.publishedAt = new Date();
      }
      Object.assign(data, addressKeys(current, input));
      // Events: a change of publication state is report.published/unpublished; any other field given, report.updated.
      const events = [
        ...(data.status ? [data.status === "published" ? ("report.published" as const) : ("report.unpublished" as const)] : []),
        ...(Object.keys(data).some((field) => field !== "status" && field !== "publishedAt") ? ["report.updated" as const] : []),
      ];
      try {
        const report = await withEvents(async (tx) => {
          await checkBrandingPhotos(tx, teamId, String(id), input);
          const before = events.length ? await reportRecord(tx, String(id)) : null;
          const report = await tx.report.update({ ...query, where: { id: String(id), teamId }, data });
          if (events.length) {
            const record = await reportRecord(tx, String(id));
            for (const type of events) await recordEvent(tx, teamId, type, record);
            // One audit entry a change: a change of publication state is named so, with every field it changed.
            const action = events.find((type) => type !== "report.updated") ?? "report.updated";
            await recordAudit(tx, ctx, { teamId, action, target: { type: "report", id: String(id) }, before, after: record });
          }
          return report;
        });
        if (input.executiveSummary !== undefined) await recordSummaryFacts(teamId, String(id), input.executiveSummary);
        return report;
      } catch (err) {
        // Deleted by another request since it was read.
        if (isRowGone(err)) throw notFound(REPORT_NOT_FOUND);
        throw err;
      }
    },
  }),
  deleteReport: t.id({
    ...needs("reports:delete", "Deletes a report and everything attached to it (comparables, showings, posts, insights). Returns its id."),
    args: { id: t.arg.id({ required: true, description: "The report's id" }) },
    resolve: async (_root, { id }, ctx) => {
      const teamId = teamIdOf(ctx);
      const deleted =
        isUuid(String(id)) &&
        (await withEvents(async (tx) => {
          const before = await tx.report.findFirst({ where: { id: String(id), teamId }, select: { address: true, city: true, state: true, zip: true, status: true } });
          const { count } = await tx.report.deleteMany({ where: { id: String(id), teamId } });
          if (!count) return false;
          await recordEvent(tx, teamId, "report.deleted", { id: String(id) });
          await recordAudit(tx, ctx, { teamId, action: "report.deleted", target: { type: "report", id: String(id) }, before, after: null });
          return true;
        }));
      if (!deleted) throw notFound(REPORT_NOT_FOUND);
      return id;
    },
  }),
}));
