// Share links (docs/api.md "Share links"): a public, read-only page and PDF of one report at
// /r/<token>, for the report's client. Making, listing and revoking them needs reports:share. Making and revoking one
// records no webhook event (like the management of keys and endpoints, they change nothing a subscriber follows);
// the audit log records share_link.created and share_link.revoked (src/audit/log.ts), never the token. A visit is
// counted on the link (viewsCount, lastViewedAt) and its first one of a day sends share_link.viewed
// (src/share/router.ts).
import { recordAudit } from "../../../audit/log";
import { prisma } from "../../../db";
import type { Prisma } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { isRowGone, notFound } from "../../errors";
import { pageArgs, pageType } from "../../page";
import { checked, text } from "../../rules";
import { isUuid, teamIdOf } from "../../scope";
import { REPORT_NOT_FOUND, reportIdOfTeam } from "../report/lookup";
import { PREVIEW_MINUTES, previewToken } from "./preview";
import { hashShareToken, newShareToken, sharePath } from "./token";
import { needs } from "../../needs";
import { valueObject } from "../../value-object";
import { linkAndToken, linkExpiry, type CreatedLink } from "../public-links";

export const SHARE_LINK_NOT_FOUND = "Share link not found";
/** A link's life when none is given, and the longest it may have (docs/api.md "Sharing, records and operations"). */
export const DEFAULT_SHARE_DAYS = 30;
export const MAX_SHARE_DAYS = 365;

builder.prismaObject("ShareLink", {
  description: "A link to a public, read-only page (and PDF) of one report. Its token is shown only when it is made.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The link's id (a UUID)" }),
    reportId: t.exposeID("reportId", { description: "The report it shows" }),
    label: t.exposeString("label", { nullable: true, description: "Your name for it, e.g. who it was sent to" }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", description: "When it stops answering" }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was made" }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true, description: "When it was revoked; it answers 404 from then on" }),
    viewsCount: t.exposeInt("viewsCount", { description: "Visits of its page and PDF, once per visitor address and clock hour (as the report's viewsCount)" }),
    lastViewedAt: t.expose("lastViewedAt", { type: "DateTime", nullable: true, description: "When it was last visited; null until its first visit" }),
  }),
});

/** A share link's warning codes, each with what it means (docs/api.md "Share links"). */
export const SHARE_LINK_WARNINGS = {
  report_is_draft: "The report is still a draft: the client sees it as it stands now, unfinished parts included. Publish it, or check it, before sending the link.",
} as const;
type ShareLinkWarning = keyof typeof SHARE_LINK_WARNINGS;

const CreatedShareLink = valueObject<CreatedLink & { warnings: ShareLinkWarning[] }>("ShareLinkWithToken", "A new share link with its token: shown only now (only its SHA-256 is kept).", {
  ...linkAndToken("ShareLink", (query, id) => prisma.shareLink.findUnique({ ...query, where: { id } }), REPORT_NOT_FOUND),
  path: (t) => t.string({ description: "The public page's path on this server, /r/<token> (the PDF: /r/<token>.pdf)", resolve: (parent) => sharePath(parent.token) }),
  warnings: (t) =>
    t.stringList({
      description: `What to check before sending the link, as codes (empty when nothing): ${Object.entries(SHARE_LINK_WARNINGS)
        .map(([code, text]) => `${code} (${text})`)
        .join("; ")}`,
      resolve: (parent) => parent.warnings,
    }),
});

const SharePage = pageType<"ShareLink", Prisma.ShareLinkWhereInput>("ShareLink", "One page of a report's share links, newest first.", {
  items: (query, page) => prisma.shareLink.findMany({ ...query, where: page.where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: page.limit, skip: page.offset }),
  count: (where) => prisma.shareLink.count({ where }),
});

const CreateInput = builder.inputType("CreateShareLinkInput", {
  description: "A new share link.",
  fields: (t) => ({
    label: t.string({ description: "Your name for it (at most 200 characters)", validate: checked(text(200).nullish()) }),
    expiresAt: t.field({ type: "DateTime", description: `When it stops answering: in the future, at most ${MAX_SHARE_DAYS} days ahead (default ${DEFAULT_SHARE_DAYS} days)` }),
  }),
});

builder.queryFields((t) => ({
  shareLinks: t.field({
    type: SharePage,
    ...needs("reports:share", "A report's share links (revoked and expired ones too), newest first; never their tokens."),
    args: { reportId: t.arg.id({ required: true, description: "The report's id" }), ...pageArgs(t) },
    resolve: async (_root, { reportId, limit, offset }, ctx) => {
      const teamId = teamIdOf(ctx);
      return { where: { reportId: await reportIdOfTeam(teamId, String(reportId)), teamId }, limit, offset };
    },
  }),
}));

const Preview = builder.objectRef<{ token: string; expiresAt: Date }>("ReportPreview").implement({
  description: `An address of the report's public page and PDF for the agent to check before sending: no share link, no view counted, valid ${PREVIEW_MINUTES} minutes.`,
  fields: (t) => ({
    path: t.string({ description: "The page's path (/r/<token>); its PDF is the same path with .pdf", resolve: (p) => sharePath(p.token) }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", description: "When it stops answering" }),
  }),
});

builder.mutationFields((t) => ({
  previewReport: t.field({
    type: Preview,
    ...needs("reports:share", `An address of the report's page as the client will see it through a share link (display switches and colours applied), marked as a preview, for ${PREVIEW_MINUTES} minutes: it makes no share link and counts no view.`, "(like a share link, the address opens the report to whoever holds it)"),
    args: { reportId: t.arg.id({ required: true, description: "The report's id" }) },
    resolve: async (_root, { reportId }, ctx) => {
      const teamId = teamIdOf(ctx);
      return previewToken(teamId, await reportIdOfTeam(teamId, String(reportId)));
    },
  }),
  createShareLink: t.field({
    type: CreatedShareLink,
    ...needs("reports:share", `Makes a link to a public page of the report (expiring in ${DEFAULT_SHARE_DAYS} days unless expiresAt says otherwise). Its token is in this answer only.`),
    args: {
      reportId: t.arg.id({ required: true, description: "The report's id" }),
      input: t.arg({ type: CreateInput, description: "Its label and expiry" }),
    },
    resolve: async (_root, { reportId, input }, ctx) => {
      const teamId = teamIdOf(ctx);
      const expiresAt = linkExpiry(input?.expiresAt, new Date(), { defaultDays: DEFAULT_SHARE_DAYS, maxDays: MAX_SHARE_DAYS });
      const id = await reportIdOfTeam(teamId, String(reportId));
      const token = newShareToken();
      const link = await prisma
        .$transaction(async (tx) => {
          const made = await tx.shareLink.create({
            data: { teamId, reportId: id, tokenHash: hashShareToken(token), label: input?.label ?? null, expiresAt },
            select: { id: true, reportId: true, label: true, expiresAt: true },
          });
          const after = { report_id: made.reportId, label: made.label, expires_at: made.expiresAt };
          await recordAudit(tx, ctx, { teamId, action: "share_link.created", target: { type: "share_link", id: made.id }, after });
          const report = await tx.report.findUnique({ where: { id }, select: { status: true } });
          return { id: made.id, draft: report?.status === "draft" };
        })
        .catch((err: unknown) => {
          throw isRowGone(err) ? notFound(REPORT_NOT_FOUND) : err; // the report was deleted meanwhile
        });
      // Sharing a draft is allowed (an agent may send it for review) but said: the client sees it unfinished.
      return { link: { id: link.id }, token, warnings: link.draft ? (["report_is_draft"] as ShareLinkWarning[]) : [] };
    },
  }),
  revokeShareLink: t.prismaField({
    type: "ShareLink",
    ...needs("reports:share", "Revokes a share link: its page and PDF answer 404 from now on, on every server. Revoking it again changes nothing."),
    args: {
      reportId: t.arg.id({ required: true, description: "The report's id" }),
      id: t.arg.id({ required: true, description: "The link's id" }),
    },
    resolve: async (query, _root, args, ctx) => {
      const teamId = teamIdOf(ctx);
      const reportId = await reportIdOfTeam(teamId, String(args.reportId));
      const where = isUuid(String(args.id)) ? { id: String(args.id), reportId, teamId } : null;
      if (where) {
        await prisma.$transaction(async (tx) => {
          const revokedAt = new Date();
          const { count } = await tx.shareLink.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt } });
          if (count) {
            await recordAudit(tx, ctx, { teamId, action: "share_link.revoked", target: { type: "share_link", id: where.id }, before: { revoked_at: null }, after: { revoked_at: revokedAt } });
          }
        });
      }
      // Gone with its report meanwhile (a delete racing this revoke) is not found either.
      const link = where ? await prisma.shareLink.findFirst({ ...query, where }) : null;
      if (!link) throw notFound(SHARE_LINK_NOT_FOUND);
      return link;
    },
  }),
}));
