// Attendees of open houses and their consent receipts (docs/api.md "Open-house sign-in"). An attendee's contact
// fields are stored encrypted (src/attendees/contact.ts) and answered decrypted to keys with attendees:read. Consent
// receipts are append-only (a trigger refuses deletes and every update but a withdrawal's): listed by showing,
// e-mail or phone (matched by keyed hash) with attendees:read, withdrawn with attendees:delete or by the visitor's
// own withdrawal link (/s/<token>/withdraw). A withdrawal is audited (consent.withdrawn).
import { openContact, lookupKeys } from "../../../attendees/contact";
import { recordAudit } from "../../../audit/log";
import type { Context } from "../../../context";
import { prisma } from "../../../db";
import type { Prisma } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { badFields, notFound } from "../../errors";
import { pageArgs, pageType } from "../../page";
import { hasInvalidCharacters } from "../../rules";
import { isUuid, teamIdOf } from "../../scope";
import { findShowing } from "../showing/object";
import { MAX_QUESTIONS } from "./links";
import { hashSignInToken, isWellFormedSignInToken } from "./token";
import { needs } from "../../needs";
import { valueObject } from "../../value-object";

export const CONSENT_NOT_FOUND = "Consent receipt not found";

const Answer = builder.objectRef<{ question: string; answer: string }>("AttendeeAnswer").implement({
  description: "A visitor's answer to one of the team's questions.",
  fields: (t) => ({
    question: t.exposeString("question", { description: "The question as the form asked it" }),
    answer: t.exposeString("answer", { description: "The visitor's answer" }),
  }),
});

const answersOf = (value: unknown): { question: string; answer: string }[] =>
  Array.isArray(value) ? value.filter((a): a is { question: string; answer: string } => typeof a?.question === "string" && typeof a?.answer === "string") : [];

builder.prismaObject("Attendee", {
  ...needs("attendees:read", "A visitor of an open house, made by its sign-ins (one per e-mail or phone and showing)."),
  fields: (t) => ({
    id: t.exposeID("id", { description: "The attendee's id (a UUID)" }),
    showingId: t.exposeID("showingId", { description: "The showing (open house) signed in to" }),
    linkId: t.exposeID("linkId", { nullable: true, description: "The sign-in link of the latest sign-in" }),
    name: t.string({ nullable: true, description: "The name given", select: { name: true, email: true, phone: true }, resolve: (a) => openContact(a).name }),
    email: t.string({ nullable: true, description: "The e-mail given", select: { name: true, email: true, phone: true }, resolve: (a) => openContact(a).email }),
    phone: t.string({ nullable: true, description: "The phone number given", select: { name: true, email: true, phone: true }, resolve: (a) => openContact(a).phone }),
    workingWithAgent: t.exposeString("workingWithAgent", { description: "Whether the visitor works with an agent: yes, no or unsaid" }),
    // One answer per question of the link, so at most MAX_QUESTIONS (the size estimate's bound of this list).
    answers: t.field({
      type: [Answer],
      description: "Answers to the team's questions at the latest sign-in",
      complexity: { field: MAX_QUESTIONS, multiplier: MAX_QUESTIONS },
      resolve: (a) => answersOf(a.answers),
    }),
    signIns: t.exposeInt("signIns", { description: "How many times the visitor signed in to this showing" }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "The first sign-in" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "The latest sign-in" }),
  }),
});

const Channels = valueObject<{ email: boolean; phone: boolean; sms: boolean }>("ConsentChannels", "The channels a visitor agreed to be contacted by (each box was unticked when shown).", {
  email: ["Boolean", "E-mail"],
  phone: ["Boolean", "Phone calls"],
  sms: ["Boolean", "Text messages"],
});

builder.prismaObject("ConsentReceipt", {
  description: "What a visitor agreed to at a sign-in: the wording's version and hash, the boxes ticked, when, from where. Append-only.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The receipt's id (a UUID)" }),
    attendeeId: t.exposeID("attendeeId", { description: "The attendee it was given by" }),
    showingId: t.exposeID("showingId", { description: "The showing signed in to" }),
    linkId: t.exposeID("linkId", { nullable: true, description: "The sign-in link used" }),
    channels: t.field({
      type: Channels,
      description: "What was ticked",
      select: { consentEmail: true, consentPhone: true, consentSms: true },
      resolve: (r) => ({ email: r.consentEmail, phone: r.consentPhone, sms: r.consentSms }),
    }),
    textVersion: t.exposeString("textVersion", { description: "The version of the consent wording shown" }),
    textSha256: t.exposeString("textSha256", { description: "SHA-256 (hex) of the exact wording shown" }),
    ip: t.exposeString("ip", { nullable: true, description: "The visitor's address" }),
    userAgent: t.exposeString("userAgent", { nullable: true, description: "The visitor's browser (User-Agent, at most 500 characters)" }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was given" }),
    withdrawnAt: t.expose("withdrawnAt", { type: "DateTime", nullable: true, description: "When it was withdrawn, if it was" }),
  }),
});

const ReceiptPage = pageType<"ConsentReceipt", Prisma.ConsentReceiptWhereInput>("ConsentReceipt", "One page of consent receipts, newest first.", {
  items: (query, page) => prisma.consentReceipt.findMany({ ...query, where: page.where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: page.limit, skip: page.offset }),
  count: (where) => prisma.consentReceipt.count({ where }),
});

/** Withdraws a receipt of the team (nothing when already withdrawn); audited when it changed. */
async function withdraw(ctx: Context | "visitor", teamId: string, id: string): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const withdrawnAt = new Date();
    const { count } = await tx.consentReceipt.updateMany({ where: { id, teamId, withdrawnAt: null }, data: { withdrawnAt } });
    if (count && ctx !== "visitor") {
      await recordAudit(tx, ctx, { teamId, action: "consent.withdrawn", target: { type: "consent_receipt", id }, before: { withdrawn_at: null }, after: { withdrawn_at: withdrawnAt } });
    }
    return count > 0;
  });
}

/** The receipt a withdrawal token names, withdrawn (a second use changes nothing); false for an unknown token. */
export async function withdrawByToken(token: string): Promise<boolean> {
  if (!isWellFormedSignInToken(token)) return false;
  const receipt = await prisma.consentReceipt.findUnique({ where: { withdrawTokenHash: hashSignInToken(token) }, select: { id: true, teamId: true } });
  if (!receipt) return false;
  await withdraw("visitor", receipt.teamId, receipt.id);
  return true;
}

builder.queryFields((t) => ({
  attendeeConsents: t.field({
    type: ReceiptPage,
    ...needs("attendees:read", "Consent receipts of one showing, e-mail or phone (exactly one of them), newest first."),
    args: {
      showingId: t.arg.string({ description: "The showing's id or unique_showing_key" }),
      email: t.arg.string({ description: "An e-mail (matched normalised: trimmed, lower case)" }),
      phone: t.arg.string({ description: "A phone number (matched normalised: + and digits)" }),
      ...pageArgs(t),
    },
    resolve: async (_root, { showingId, email, phone, limit, offset }, ctx) => {
      const teamId = teamIdOf(ctx);
      const given = [showingId, email, phone].filter((v) => v != null);
      if (given.length !== 1) {
        throw badFields((name) => `Give exactly one of ${name(["showingId"])}, ${name(["email"])} or ${name(["phone"])}`, [given.length ? "email" : "showingId"]);
      }
      const bad = [email, phone].find((v) => v != null && (v.length > 320 || hasInvalidCharacters(v) || v.trim() === ""));
      if (bad !== undefined) throw badFields((name) => `${name([email != null ? "email" : "phone"])} must be 1 to 320 characters of text`, [email != null ? "email" : "phone"]);
      let where: Prisma.ConsentReceiptWhereInput;
      if (showingId != null) {
        const showing = await findShowing(teamId, showingId, (w) => prisma.showing.findFirst({ where: w, select: { id: true } }));
        where = { teamId, showingId: showing?.id ?? "00000000-0000-0000-0000-000000000000" };
      } else if (email != null) {
        where = { teamId, emailIndex: { in: lookupKeys("email", email) } };
      } else {
        where = { teamId, phoneIndex: { in: lookupKeys("phone", phone) } };
      }
      return { where, limit, offset };
    },
  }),
}));

builder.mutationFields((t) => ({
  withdrawConsent: t.prismaField({
    type: "ConsentReceipt",
    ...needs("attendees:delete", "Records the withdrawal of a consent (from now on the visitor must not be contacted on its channels). Withdrawing again changes nothing."),
    args: { id: t.arg.id({ required: true, description: "The consent receipt's id" }) },
    resolve: async (query, _root, args, ctx) => {
      const teamId = teamIdOf(ctx);
      const id = String(args.id);
      if (!isUuid(id)) throw notFound(CONSENT_NOT_FOUND);
      await withdraw(ctx, teamId, id);
      const receipt = await prisma.consentReceipt.findFirst({ ...query, where: { id, teamId } });
      if (!receipt) throw notFound(CONSENT_NOT_FOUND);
      return receipt;
    },
  }),
}));
