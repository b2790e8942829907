// Report: object type, queries (one, list, address search) and mutations (create, update, delete).
import { z } from "zod";
import { prisma } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import { normalizeAddress, normalizeFullAddress } from "../address";
import { builder } from "../builder";
import { badInput, notFound } from "../errors";
import { isUuid, requirePermission, teamIdOf } from "../scope";
import { reportFieldRules as rules } from "../validation";
import { type InputFields } from "../builder";
import { pageArgs, pageRule } from "./page";

export const ReportStatus = builder.enumType("ReportStatus", { values: ["draft", "published"] as const });
const ReportStatusFilter = builder.enumType("ReportStatusFilter", { values: ["draft", "published", "all"] as const });

const byRecency = [{ createdAt: "desc" }, { id: "desc" }] satisfies Prisma.ReportOrderByWithRelationInput[];
const oldestFirst = [{ createdAt: "asc" }, { id: "asc" }] as const;

builder.prismaObject("Report", {
  fields: (t) => ({
    id: t.exposeID("id"),
    address: t.exposeString("address"),
    city: t.exposeString("city", { nullable: true }),
    state: t.exposeString("state", { nullable: true }),
    zip: t.exposeString("zip", { nullable: true }),
    price: t.exposeFloat("price", { nullable: true }),
    beds: t.exposeInt("beds", { nullable: true }),
    baths: t.exposeFloat("baths", { nullable: true }),
    sqft: t.exposeInt("sqft", { nullable: true }),
    yearBuilt: t.exposeInt("yearBuilt", { nullable: true }),
    propertyType: t.exposeString("propertyType", { nullable: true }),
    status: t.expose("status", { type: ReportStatus }),
    isPublished: t.boolean({ select: { status: true }, resolve: (r) => r.status === "published" }),
    isDraft: t.boolean({ select: { status: true }, resolve: (r) => r.status === "draft" }),
    publishedAt: t.expose("publishedAt", { type: "DateTime", nullable: true }),
    viewsCount: t.exposeInt("viewsCount"),
    savesCount: t.exposeInt("savesCount"),
    showingsCount: t.relationCount("showings"),
    description: t.exposeString("description", { nullable: true }),
    lotSize: t.exposeFloat("lotSize", { nullable: true }),
    portalUrl: t.exposeString("portalUrl", { nullable: true }),
    portalPropertyId: t.exposeString("portalPropertyId", { nullable: true }),
    mlsId: t.exposeString("mlsId", { nullable: true }),
    listingAgent: t.exposeString("listingAgent"),
    createdBy: t.exposeString("createdBy"),
    customAgentName: t.exposeString("customAgentName", { nullable: true }),
    customAgentEmail: t.exposeString("customAgentEmail", { nullable: true }),
    primaryColor: t.exposeString("primaryColor", { nullable: true }),
    secondaryColor: t.exposeString("secondaryColor", { nullable: true }),
    executiveSummary: t.exposeString("executiveSummary", { nullable: true }),
    showComps: t.exposeBoolean("showComps"),
    showNeighborhood: t.exposeBoolean("showNeighborhood"),
    showSocial: t.exposeBoolean("showSocial"),
    showShowings: t.exposeBoolean("showShowings"),
    showAgentInsights: t.exposeBoolean("showAgentInsights"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    // Each collection is its own resource: reading it needs that resource's read permission.
    comparables: t.relation("comparables", {
      nullable: true,
      authScopes: { permission: "comparables:read" },
      query: { orderBy: [...oldestFirst] },
    }),
    showings: t.relation("showings", {
      nullable: true,
      authScopes: { permission: "showings:read" },
      query: { orderBy: [...oldestFirst] },
    }),
    socialMediaPosts: t.relation("socialMediaPosts", {
      nullable: true,
      authScopes: { permission: "social_media:read" },
      query: { orderBy: [...oldestFirst] },
    }),
    agentInsights: t.relation("agentInsights", {
      nullable: true,
      authScopes: { permission: "ai_insights:read" },
      query: { orderBy: [...oldestFirst] },
    }),
    team: t.relation("team", { nullable: true, authScopes: { permission: "team:read" } }),
  }),
});

interface ReportPageShape {
  where: Prisma.ReportWhereInput;
  limit: number;
  offset: number;
}

const ReportPage = builder.objectRef<ReportPageShape>("ReportPage").implement({
  description: "One page of the team's reports, newest first.",
  fields: (t) => ({
    items: t.prismaField({
      type: ["Report"],
      resolve: (query, page) => prisma.report.findMany({ ...query, where: page.where, orderBy: byRecency, take: page.limit, skip: page.offset }),
    }),
    total: t.int({ resolve: (page) => prisma.report.count({ where: page.where }) }),
    limit: t.exposeInt("limit"),
    offset: t.exposeInt("offset"),
  }),
});

/**
 * The best match for an address (DECISIONS): exact, then prefix, then containment; newest update breaks ties.
 * search_key ("address city state zip") starts with address_key, so one trigram-indexed LIKE on it finds every
 * candidate; address_key only ranks.
 */
async function findReportIdByAddress(teamId: string, input: string): Promise<string | null> {
  const key = normalizeAddress(input);
  if (!key) return null;
  const pattern = `%${key}%`;
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    SELECT id FROM reports
    WHERE team_id = ${teamId}::uuid AND search_key LIKE ${pattern}
    ORDER BY (address_key = ${key} OR search_key = ${key}) DESC,
             (address_key LIKE ${`${key}%`} OR search_key LIKE ${`${key}%`}) DESC,
             updated_at DESC
    LIMIT 1`;
  return rows[0]?.id ?? null;
}

builder.queryFields((t) => ({
  report: t.prismaField({
    type: "Report",
    nullable: true,
    description: "One report of the team by id. Unknown ids (and other teams' reports) give a NOT_FOUND error.",
    authScopes: { permission: "reports:read" },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const report = isUuid(String(id)) ? await prisma.report.findFirst({ ...query, where: { id: String(id), teamId: teamIdOf(ctx) } }) : null;
      if (!report) throw notFound("Report not found");
      return report;
    },
  }),
  reportByAddress: t.prismaField({
    type: "Report",
    nullable: true,
    description:
      "The team's report that best matches an address: case, punctuation, street-suffix, unit and directional abbreviations are ignored.",
    authScopes: { permission: "reports:read" },
    args: { address: t.arg.string({ required: true, validate: z.string().trim().min(1).max(1000) }) },
    resolve: async (query, _root, { address }, ctx) => {
      const teamId = teamIdOf(ctx);
      const id = await findReportIdByAddress(teamId, address);
      const report = id ? await prisma.report.findFirst({ ...query, where: { id, teamId } }) : null;
      if (!report) throw notFound(`No report found matching address '${address}'`);
      return report;
    },
  }),
  reports: t.field({
    type: ReportPage,
    description: "The team's reports, newest first.",
    authScopes: { permission: "reports:read" },
    args: {
      status: t.arg({ type: ReportStatusFilter, defaultValue: "all", required: true }),
      ...pageArgs(t),
    },
    validate: pageRule,
    resolve: (_root, { status, limit, offset }, ctx) => ({
      where: { teamId: teamIdOf(ctx), ...(status === "all" ? {} : { status }) },
      limit,
      offset,
    }),
  }),
}));

// ---- mutations ----

// Optional report fields, shared by the create and update inputs. Null clears a value.
const optionalReportFields = (t: InputFields) => ({
  city: t.string(),
  state: t.string(),
  zip: t.string(),
  price: t.float(),
  beds: t.int(),
  baths: t.float(),
  sqft: t.int(),
  yearBuilt: t.int(),
  lotSize: t.float(),
  propertyType: t.string(),
  description: t.string(),
  executiveSummary: t.string(),
  listingAgent: t.string(),
  createdBy: t.string(),
  customAgentName: t.string(),
  customAgentEmail: t.string(),
  portalPropertyId: t.string(),
  portalUrl: t.string(),
  mlsId: t.string(),
  primaryColor: t.string(),
  secondaryColor: t.string(),
});

const { address, status, isDraft, showComps, showNeighborhood, showSocial, showShowings, showAgentInsights, ...optionalRules } = rules;

const CreateReportInput = builder.inputType("CreateReportInput", {
  fields: (t) => ({ address: t.string({ required: true }), ...optionalReportFields(t) }),
  validate: z.object({ address, ...optionalRules }),
});

const UpdateReportInput = builder.inputType("UpdateReportInput", {
  description: "Only the fields given are changed. status/isDraft publish or unpublish (needs reports:publish).",
  fields: (t) => ({
    address: t.string(),
    ...optionalReportFields(t),
    status: t.field({ type: ReportStatus }),
    isDraft: t.boolean(),
    showComps: t.boolean(),
    showNeighborhood: t.boolean(),
    showSocial: t.boolean(),
    showShowings: t.boolean(),
    showAgentInsights: t.boolean(),
  }),
  validate: z.object({
    address: address.optional(),
    ...optionalRules,
    status: status.optional(),
    isDraft: isDraft.optional(),
    showComps: showComps.optional(),
    showNeighborhood: showNeighborhood.optional(),
    showSocial: showSocial.optional(),
    showShowings: showShowings.optional(),
    showAgentInsights: showAgentInsights.optional(),
  }),
});

/** The status an update asks for, or undefined when it does not touch it. Contradictions are a 400. */
function requestedStatus(input: { status?: "draft" | "published" | null; isDraft?: boolean | null }) {
  const fromFlag = input.isDraft == null ? undefined : input.isDraft ? "draft" : "published";
  const fromStatus = input.status ?? undefined;
  if (fromFlag && fromStatus && fromFlag !== fromStatus) {
    throw badInput(`status '${fromStatus}' contradicts isDraft ${String(input.isDraft)}`);
  }
  return fromStatus ?? fromFlag;
}

builder.mutationFields((t) => ({
  createReport: t.prismaField({
    type: "Report",
    description: "Creates a draft report. listingAgent defaults to the team's admin, createdBy to the team's name.",
    authScopes: { permission: "reports:create" },
    args: { input: t.arg({ type: CreateReportInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const teamId = teamIdOf(ctx);
      const team = await prisma.team.findUniqueOrThrow({ where: { id: teamId }, select: { name: true, adminName: true } });
      return prisma.report.create({
        ...query,
        data: {
          ...input,
          listingAgent: input.listingAgent ?? team.adminName,
          createdBy: input.createdBy ?? team.name,
          addressKey: normalizeAddress(input.address),
          searchKey: normalizeFullAddress(input),
          status: "draft",
          teamId,
        },
      });
    },
  }),
  updateReport: t.prismaField({
    type: "Report",
    description: "Changes the given fields of a report.",
    authScopes: { permission: "reports:update" },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateReportInput, required: true }) },
    resolve: async (query, _root, { id, input }, ctx) => {
      const teamId = teamIdOf(ctx);
      const current = isUuid(String(id))
        ? await prisma.report.findFirst({
            where: { id: String(id), teamId },
            select: { address: true, city: true, state: true, zip: true, status: true, publishedAt: true },
          })
        : null;
      if (!current) throw notFound("Report not found");

      // Columns that always hold a value ignore null; the rest are cleared by it.
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
      if (address != null || input.city !== undefined || input.state !== undefined || input.zip !== undefined) {
        const merged = {
          address: address ?? current.address,
          city: input.city === undefined ? current.city : input.city,
          state: input.state === undefined ? current.state : input.state,
          zip: input.zip === undefined ? current.zip : input.zip,
        };
        data.addressKey = normalizeAddress(merged.address);
        data.searchKey = normalizeFullAddress(merged);
      }
      return prisma.report.update({ ...query, where: { id: String(id) }, data });
    },
  }),
  deleteReport: t.id({
    description: "Deletes a report and everything attached to it (comparables, showings, posts, insights). Returns its id.",
    authScopes: { permission: "reports:delete" },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      const { count } = isUuid(String(id)) ? await prisma.report.deleteMany({ where: { id: String(id), teamId: teamIdOf(ctx) } }) : { count: 0 };
      if (count === 0) throw notFound("Report not found");
      return id;
    },
  }),
}));

/** The entries of `source` that hold a value (neither null nor undefined). */
function withoutNulls<T extends object>(source: T): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(Object.entries(source).filter(([, v]) => v != null)) as { [K in keyof T]?: NonNullable<T[K]> };
}
