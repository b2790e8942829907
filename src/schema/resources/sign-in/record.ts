// A visitor's sign-in at an open house (docs/open-house-sign-in.md): the form's fields checked, the showing's
// attendee created or updated (the same e-mail or phone, normalised, within one showing is one attendee), the
// showing's attendees_count bumped for a new attendee, a consent receipt written, and `visitor.signed_in` recorded,
// all in one transaction. The public form (src/share/sign-in-router.ts) is the only caller; it has checked the link, the
// rate limits, the honeypot and the fill time first.
import { randomBytes } from "node:crypto";
import { sealContact, lookupKeys } from "../../../attendees/contact";
import { prisma } from "../../../db";
import { recordEvent, withEvents } from "../../../webhooks/outbox";
import { hasInvalidCharacters } from "../../rules";
import { consentText, type Channel } from "./consent-text";
import { hashSignInToken, type ActiveSignInLink } from "./token";

/** Bounds of the form's fields, in characters. */
export const FIELD_BOUNDS = { name: 200, email: 254, phone: 40, answer: 1000, userAgent: 500 } as const;
export const WORKING_WITH_AGENT = ["yes", "no", "unsaid"] as const;
export type WorkingWithAgent = (typeof WORKING_WITH_AGENT)[number];

export interface SignInForm {
  name: string;
  email: string | null;
  phone: string | null;
  workingWithAgent: WorkingWithAgent;
  answers: string[];
  consent: Record<Channel, boolean>;
}

/** A field's problem, shown next to it: name, email, phone, working_with_agent, q1…q5. */
export type FieldErrors = Partial<Record<string, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const text = (value: unknown): string => (typeof value === "string" ? value.trim() : "");

/** The form's values checked: the sign-in, or the problem of each field in words a visitor understands. */
export function readSignInForm(body: Record<string, unknown>, questions: readonly string[]): { form: SignInForm } | { errors: FieldErrors; values: Record<string, string> } {
  const errors: FieldErrors = {};
  const values: Record<string, string> = {};
  const field = (name: string, max: number): string => {
    const value = text(body[name]);
    values[name] = value.slice(0, max);
    if (value.length > max) errors[name] = `Please use at most ${max} characters.`;
    else if (hasInvalidCharacters(value)) errors[name] = "Please remove the control characters.";
    return value;
  };
  const name = field("name", FIELD_BOUNDS.name);
  const email = field("email", FIELD_BOUNDS.email);
  const phone = field("phone", FIELD_BOUNDS.phone);
  if (!errors.name && !name) errors.name = "Please enter your name.";
  if (!errors.email && email && !EMAIL.test(email)) errors.email = "Please enter an e-mail address like name@example.com.";
  const phoneDigits = phone.replace(/\D/g, "");
  if (!errors.phone && phone && (!/^[0-9+().\-\s]+$/.test(phone) || phoneDigits.length < 7 || phoneDigits.length > 15)) {
    errors.phone = "Please enter a phone number of 7 to 15 digits.";
  }
  if (!email && !phone && !errors.email && !errors.phone) errors.email = "Please enter an e-mail address or a phone number.";
  const agent = text(body.working_with_agent) || "unsaid";
  if (!(WORKING_WITH_AGENT as readonly string[]).includes(agent)) errors.working_with_agent = "Please choose yes, no or prefer not to say.";
  values.working_with_agent = agent;
  const answers = questions.map((_q, i) => field(`q${i + 1}`, FIELD_BOUNDS.answer));
  const consent = { email: body.consent_email === "yes", phone: body.consent_phone === "yes", sms: body.consent_sms === "yes" };
  if (consent.email && !email && !errors.email) errors.email = "Please enter the e-mail address you agree to be e-mailed at.";
  if ((consent.phone || consent.sms) && !phone && !errors.phone) errors.phone = "Please enter the phone number you agree to be called or texted at.";
  if (Object.keys(errors).length) return { errors, values };
  return { form: { name, email: email || null, phone: phone || null, workingWithAgent: agent as WorkingWithAgent, answers, consent } };
}

export interface SignedIn {
  attendeeId: string;
  receiptId: string;
  /** The consent receipt's withdrawal token: /s/<token>/withdraw (only its SHA-256 is kept). */
  withdrawToken: string;
  newAttendee: boolean;
}

/**
 * Sign-ins of one showing in this process, one after the other: each waits here, holding no database connection,
 * until the one before it committed. Across processes the showing's row lock (below) orders them; without this queue
 * a burst of sign-ins at one open house would hold every pooled connection waiting for that one lock.
 */
const queues = new Map<string, Promise<unknown>>();

function inTurn<T>(showingId: string, work: () => Promise<T>): Promise<T> {
  const before = queues.get(showingId) ?? Promise.resolve();
  const mine = before.then(work, work);
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  queues.set(showingId, settled);
  void settled.then(() => {
    if (queues.get(showingId) === settled) queues.delete(showingId);
  });
  return mine;
}

export function recordSignIn(link: ActiveSignInLink, form: SignInForm, from: { ip: string | null; userAgent: string | null }): Promise<SignedIn | null> {
  return inTurn(link.showingId, () => signIn(link, form, from));
}

async function signIn(link: ActiveSignInLink, form: SignInForm, from: { ip: string | null; userAgent: string | null }): Promise<SignedIn | null> {
  const team = await prisma.team.findUnique({ where: { id: link.teamId }, select: { name: true } });
  if (!team) return null;
  const wording = consentText(team.name);
  const emailKeys = lookupKeys("email", form.email);
  const phoneKeys = lookupKeys("phone", form.phone);
  const withdrawToken = randomBytes(32).toString("base64url");
  return withEvents(async (tx) => {
    // One sign-in of a showing at a time: the de-duplication below and the count see every earlier one.
    const [showing] = await tx.$queryRaw<{ report_id: string; attendees_count: number | null }[]>`
      SELECT report_id::text, attendees_count FROM showings WHERE id = ${link.showingId}::uuid AND team_id = ${link.teamId}::uuid FOR UPDATE`;
    if (!showing) return null; // deleted since the link was read
    const matches = await tx.attendee.findMany({
      where: { showingId: link.showingId, OR: [...(emailKeys.length ? [{ emailIndex: { in: emailKeys } }] : []), ...(phoneKeys.length ? [{ phoneIndex: { in: phoneKeys } }] : [])] },
      select: { id: true, emailIndex: true, name: true, email: true, phone: true, phoneIndex: true },
      orderBy: { createdAt: "asc" },
    });
    const existing = matches.find((a) => a.emailIndex && emailKeys.includes(a.emailIndex)) ?? matches[0];
    const sealed = sealContact({ name: form.name, email: form.email, phone: form.phone });
    const answers = link.questions.map((question, i) => ({ question, answer: form.answers[i] ?? "" })).filter((a) => a.answer !== "");
    const common = { name: sealed.name, workingWithAgent: form.workingWithAgent, answers, linkId: link.id };
    // A value the visitor left out this time keeps the one given before.
    const contactFields = {
      ...(form.email ? { email: sealed.email, emailIndex: sealed.emailIndex } : {}),
      ...(form.phone ? { phone: sealed.phone, phoneIndex: sealed.phoneIndex } : {}),
    };
    const attendee = existing
      ? await tx.attendee.update({ where: { id: existing.id }, data: { ...common, ...contactFields, signIns: { increment: 1 } }, select: { id: true, signIns: true, emailIndex: true, phoneIndex: true } })
      : await tx.attendee.create({ data: { ...common, ...contactFields, teamId: link.teamId, showingId: link.showingId }, select: { id: true, signIns: true, emailIndex: true, phoneIndex: true } });
    let attendeesCount = showing.attendees_count ?? 0;
    if (!existing) {
      attendeesCount += 1;
      await tx.showing.update({ where: { id: link.showingId }, data: { attendeesCount } });
    }
    const receipt = await tx.consentReceipt.create({
      data: {
        teamId: link.teamId,
        attendeeId: attendee.id,
        showingId: link.showingId,
        linkId: link.id,
        consentEmail: form.consent.email,
        consentPhone: form.consent.phone,
        consentSms: form.consent.sms,
        textVersion: wording.version,
        textSha256: wording.sha256,
        ip: from.ip,
        userAgent: from.userAgent?.slice(0, FIELD_BOUNDS.userAgent) ?? null,
        emailIndex: attendee.emailIndex,
        phoneIndex: attendee.phoneIndex,
        withdrawTokenHash: hashSignInToken(withdrawToken),
      },
      select: { id: true, createdAt: true },
    });
    // No contact data in the event: webhook endpoints hold no key that could read attendees; live streams read the
    // attendee when they send the event, for keys with attendees:read (src/schema/types/live-events.ts).
    await recordEvent(tx, link.teamId, "visitor.signed_in", {
      id: attendee.id,
      showing_id: link.showingId,
      report_id: showing.report_id,
      link_id: link.id,
      consent_receipt_id: receipt.id,
      new_attendee: !existing,
      sign_ins: attendee.signIns,
      attendees_count: attendeesCount,
      working_with_agent: form.workingWithAgent,
      consent: form.consent,
      signed_in_at: receipt.createdAt,
    });
    return { attendeeId: attendee.id, receiptId: receipt.id, withdrawToken, newAttendee: !existing };
  });
}

