// Open-house sign-in links (docs/api.md "Open-house sign-in"): a public form at /s/<token> where visitors of one
// showing sign in, with a QR code of its URL for the door. Making, listing and revoking them needs showings:update
// (the QR code too: it holds the token). The token is shown once; only its SHA-256 (for lookups) and a copy
// encrypted with the data key (for the QR code) are kept. The audit log records sign_in_link.created and
// sign_in_link.revoked, never the token.
import { randomBytes } from "node:crypto";
import type QRCodeModule from "qrcode";
import { recordAudit, type AuditActor } from "../../../audit/log";
import { prisma } from "../../../db";
import type { Prisma } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { isRowGone, notFound } from "../../errors";
import { pageArgs, pageType } from "../../page";
import { checked, label } from "../../rules";
import { isUuid, teamIdOf } from "../../scope";
import { findShowing, SHOWING_NOT_FOUND } from "../showing/object";
import { z } from "zod";
import { hashSignInToken, newSignInToken, openSignInToken, sealSignInToken, signInPath } from "./token";
import { needs } from "../../needs";
import { valueObject } from "../../value-object";
import { linkAndToken, linkExpiry, type CreatedLink } from "../public-links";

export const SIGN_IN_LINK_NOT_FOUND = "Sign-in link not found";
/** A link's life when none is given, and the longest it may have. */
export const DEFAULT_SIGN_IN_DAYS = 7;
export const MAX_SIGN_IN_DAYS = 90;
/** The team's own questions a form may ask, and their length. */
export const MAX_QUESTIONS = 5;
export const MAX_QUESTION_LENGTH = 200;

builder.prismaObject("SignInLink", {
  description: "A link to a public sign-in form of one open house (or showing). Its token is shown only when it is made.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The link's id (a UUID)" }),
    showingId: t.exposeID("showingId", { description: "The showing its visitors sign in to" }),
    label: t.exposeString("label", { nullable: true, description: "Your name for it, e.g. where it is posted" }),
    questions: t.stringList({ description: "The team's questions the form asks (answers optional)", resolve: (link) => (Array.isArray(link.questions) ? link.questions.map(String) : []) }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", description: "When it stops answering" }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was made" }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true, description: "When it was revoked; its form answers 404 from then on" }),
  }),
});

const CreatedSignInLink = valueObject<CreatedLink>("SignInLinkWithToken", "A new sign-in link with its token: shown only now (only its SHA-256 is kept for lookups).", {
  ...linkAndToken("SignInLink", (query, id) => prisma.signInLink.findUnique({ ...query, where: { id } }), SHOWING_NOT_FOUND),
  path: (t) => t.string({ description: "The public form's path on this server, /s/<token>", resolve: (parent) => signInPath(parent.token) }),
});

const LinkPage = pageType<"SignInLink", Prisma.SignInLinkWhereInput>("SignInLink", "One page of a showing's sign-in links, newest first.", {
  items: (query, page) => prisma.signInLink.findMany({ ...query, where: page.where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: page.limit, skip: page.offset }),
  count: (where) => prisma.signInLink.count({ where }),
});

const question = z
  .string()
  .max(MAX_QUESTION_LENGTH)
  .refine((s) => s.trim() !== "", { error: "must not be empty" });

const CreateInput = builder.inputType("CreateSignInLinkInput", {
  description: "A new sign-in link.",
  fields: (t) => ({
    label: t.string({ description: "Your name for it (at most 200 characters)", validate: checked(label(200).nullish()) }),
    expiresAt: t.field({ type: "DateTime", description: `When it stops answering: in the future, at most ${MAX_SIGN_IN_DAYS} days ahead (default ${DEFAULT_SIGN_IN_DAYS} days)` }),
    questions: t.stringList({
      description: `Up to ${MAX_QUESTIONS} questions of your own the form asks, each at most ${MAX_QUESTION_LENGTH} characters (answers are optional)`,
      validate: checked(z.array(question).max(MAX_QUESTIONS).nullish()),
    }),
  }),
});

/** The showing's id when it is the team's (`ref`: its id or unique_showing_key), else 404. */
export async function showingIdOfTeam(teamId: string, ref: string): Promise<string> {
  const showing = await findShowing(teamId, ref, (where) => prisma.showing.findFirst({ where, select: { id: true } }));
  if (!showing) throw notFound(SHOWING_NOT_FOUND);
  return showing.id;
}

/**
 * Makes a sign-in link of the team's showing (`showingRef`: its id or unique_showing_key), audited: the GraphQL
 * mutation and `prs sign-in-links create`. The token is in this answer only.
 */
export async function createSignInLink(
  actor: AuditActor,
  teamId: string,
  showingRef: string,
  input: { label?: string | null; expiresAt?: Date | null; questions?: readonly string[] | null },
): Promise<CreatedLink> {
  const expiresAt = linkExpiry(input.expiresAt, new Date(), { defaultDays: DEFAULT_SIGN_IN_DAYS, maxDays: MAX_SIGN_IN_DAYS });
  const id = await showingIdOfTeam(teamId, showingRef);
  const token = newSignInToken();
  const questions = (input.questions ?? []).map((q) => q.trim());
  const link = await prisma
    .$transaction(async (tx) => {
      const made = await tx.signInLink.create({
        data: { teamId, showingId: id, tokenHash: hashSignInToken(token), tokenSealed: sealSignInToken(token), formSecret: randomBytes(32).toString("base64url"), label: input.label ?? null, questions, expiresAt },
        select: { id: true, showingId: true, label: true, expiresAt: true },
      });
      const after = { showing_id: made.showingId, label: made.label, expires_at: made.expiresAt };
      await recordAudit(tx, actor, { teamId, action: "sign_in_link.created", target: { type: "sign_in_link", id: made.id }, after });
      return { id: made.id };
    })
    .catch((err: unknown) => {
      throw isRowGone(err) ? notFound(SHOWING_NOT_FOUND) : err; // the showing was deleted meanwhile
    });
  return { link, token };
}

/**
 * Revokes a sign-in link of the team's showing, audited (a second revocation changes nothing): the GraphQL mutation
 * and `prs sign-in-links revoke`. The link's lookup (null when `id` is not a uuid); the showing must be the team's.
 */
export async function revokeSignInLink(actor: AuditActor, teamId: string, showingRef: string, id: string): Promise<Prisma.SignInLinkWhereInput | null> {
  const showingId = await showingIdOfTeam(teamId, showingRef);
  const where = isUuid(id) ? { id, showingId, teamId } : null;
  if (where) {
    await prisma.$transaction(async (tx) => {
      const revokedAt = new Date();
      const { count } = await tx.signInLink.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt } });
      if (count) {
        await recordAudit(tx, actor, { teamId, action: "sign_in_link.revoked", target: { type: "sign_in_link", id }, before: { revoked_at: null }, after: { revoked_at: revokedAt } });
      }
    });
  }
  return where;
}

export const QrFormat = builder.enumType("QrFormat", {
  description: "The image format of a QR code",
  values: { SVG: { description: "image/svg+xml, as text" }, PNG: { description: "image/png, in base64" } } as const,
});

const QrCode = valueObject<{ mediaType: string; content: string; url: string }>("SignInQrCode", "A QR code of a sign-in link's URL, for a door sign or a flyer.", {
  mediaType: ["String", "image/svg+xml or image/png"],
  content: ["String", "The SVG text, or the PNG in base64"],
  url: ["String", "The URL it encodes (it holds the link's token)"],
});

/** A QR code of `url`: SVG text or PNG bytes (error correction M, a 4-module quiet zone). */
export async function qrCode(url: string, format: "SVG" | "PNG"): Promise<{ mediaType: string; content: string }> {
  // Loaded on the first QR code, not at every process's start: few requests ask for one.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
  const QRCode = require("qrcode") as typeof QRCodeModule;
  const options = { errorCorrectionLevel: "M" as const, margin: 4 };
  if (format === "SVG") return { mediaType: "image/svg+xml", content: await QRCode.toString(url, { ...options, type: "svg" }) };
  const png = await QRCode.toBuffer(url, { ...options, type: "png", width: 512 });
  return { mediaType: "image/png", content: png.toString("base64") };
}

builder.queryFields((t) => ({
  signInLinks: t.field({
    type: LinkPage,
    ...needs("showings:update", "A showing's sign-in links (revoked and expired ones too), newest first; never their tokens."),
    args: { showingId: t.arg.string({ required: true, description: "The showing's id or unique_showing_key" }), ...pageArgs(t) },
    resolve: async (_root, { showingId, limit, offset }, ctx) => {
      const teamId = teamIdOf(ctx);
      return { where: { showingId: await showingIdOfTeam(teamId, showingId), teamId }, limit, offset };
    },
  }),
  signInLinkQrCode: t.field({
    type: QrCode,
    ...needs("showings:update", "A QR code of a sign-in link's URL (baseUrl + /s/<token>).", "(the code holds the token)"),
    args: {
      showingId: t.arg.string({ required: true, description: "The showing's id or unique_showing_key" }),
      id: t.arg.id({ required: true, description: "The link's id" }),
      format: t.arg({ type: QrFormat, required: true, description: "SVG or PNG" }),
      baseUrl: t.arg.string({ required: true, description: "This service's public address, e.g. https://reports.example.com", validate: checked(z.url({ protocol: /^https?$/ }).max(500)) }),
    },
    resolve: async (_root, args, ctx) => {
      const teamId = teamIdOf(ctx);
      const showingId = await showingIdOfTeam(teamId, args.showingId);
      const link = isUuid(String(args.id)) ? await prisma.signInLink.findFirst({ where: { id: String(args.id), showingId, teamId }, select: { tokenSealed: true } }) : null;
      if (!link) throw notFound(SIGN_IN_LINK_NOT_FOUND);
      const url = `${args.baseUrl.replace(/\/+$/, "")}${signInPath(openSignInToken(link.tokenSealed))}`;
      return { ...(await qrCode(url, args.format)), url };
    },
  }),
}));

builder.mutationFields((t) => ({
  createSignInLink: t.field({
    type: CreatedSignInLink,
    ...needs("showings:update", `Makes a link to a public sign-in form of the showing (expiring in ${DEFAULT_SIGN_IN_DAYS} days unless expiresAt says otherwise). Its token is in this answer only.`),
    args: {
      showingId: t.arg.string({ required: true, description: "The showing's id or unique_showing_key" }),
      input: t.arg({ type: CreateInput, description: "Its label, expiry and questions" }),
    },
    resolve: (_root, { showingId, input }, ctx) => createSignInLink(ctx, teamIdOf(ctx), showingId, input ?? {}),
  }),
  revokeSignInLink: t.prismaField({
    type: "SignInLink",
    ...needs("showings:update", "Revokes a sign-in link: its form answers 404 from now on, on every server. Revoking it again changes nothing."),
    args: {
      showingId: t.arg.string({ required: true, description: "The showing's id or unique_showing_key" }),
      id: t.arg.id({ required: true, description: "The link's id" }),
    },
    resolve: async (query, _root, args, ctx) => {
      const teamId = teamIdOf(ctx);
      const where = await revokeSignInLink(ctx, teamId, args.showingId, String(args.id));
      const link = where ? await prisma.signInLink.findFirst({ ...query, where }) : null;
      if (!link) throw notFound(SIGN_IN_LINK_NOT_FOUND);
      return link;
    },
  }),
}));
