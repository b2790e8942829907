// CRM destinations (docs/api.md "CRM destinations"): a team's Follow Up Boss account, or a JSON receiver of its own,
// fed with open-house leads through the same outbox, retries, log and redeliver as webhooks. A destination is a row
// of webhook_endpoints whose `kind` is not `webhook`; this module turns a claimed delivery into its request.
//
// A lead is read when it is sent, not when it was recorded: the event holds no contact data (docs/api.md
// "Open-house sign-in"), so the attendee's name, e-mail and phone are decrypted here. Only a person who consented to
// be contacted on at least one channel is pushed (the fan-out already passes over sign-ins without consent,
// ./queue.ts), and never one whose consent was withdrawn since, who asked to be erased (the team's suppression list),
// or whose attendee row is gone.
import { isSuppressed, openContact } from "../attendees/contact";
import { decryptContact } from "../attendees/crypto";
import { prisma } from "../db";

/** The kinds of destination: `webhook` rows are the team's webhooks; the others are CRMs. */
export const CRM_KINDS = ["follow_up_boss", "json"] as const;
export type CrmKind = (typeof CRM_KINDS)[number];
/** Destinations a team may hold. */
export const MAX_CRM_DESTINATIONS = 10;
/** The events a CRM destination can take: leads. */
export const CRM_EVENT_TYPES = ["visitor.signed_in"] as const;

const USER_AGENT = "PropertyReportService-CRM/1.0";

/** What a destination is sent for a delivery, or why nothing is sent (the delivery then fails without a retry). */
export type CrmRequest = { url: string; body: string; headers: Record<string, string> } | { refused: string };

interface SignIn {
  id?: unknown;
  report_id?: unknown;
  consent_receipt_id?: unknown;
  working_with_agent?: unknown;
  signed_in_at?: unknown;
}

interface Lead {
  person: { name: string | null; email: string | null; phone: string | null };
  consent: { email: boolean; phone: boolean; sms: boolean };
  report: { address: string; city: string | null; state: string | null; zip: string | null; price: number | null } | null;
  teamName: string;
}

/** The person and the property of a `visitor.signed_in` event, when they may be pushed. */
async function leadOf(teamId: string, data: SignIn): Promise<Lead | { refused: string }> {
  const attendeeId = typeof data.id === "string" ? data.id : null;
  const receiptId = typeof data.consent_receipt_id === "string" ? data.consent_receipt_id : null;
  const [attendee, receipt, report, team] = await Promise.all([
    attendeeId ? prisma.attendee.findFirst({ where: { id: attendeeId, teamId }, select: { name: true, email: true, phone: true } }) : null,
    receiptId ? prisma.consentReceipt.findFirst({ where: { id: receiptId, teamId }, select: { consentEmail: true, consentPhone: true, consentSms: true, withdrawnAt: true } }) : null,
    typeof data.report_id === "string" ? prisma.report.findFirst({ where: { id: data.report_id, teamId }, select: { address: true, city: true, state: true, zip: true, price: true } }) : null,
    prisma.team.findUnique({ where: { id: teamId }, select: { name: true } }),
  ]);
  if (!attendee) return { refused: "Not sent: the attendee is gone (erased or deleted)" };
  if (!receipt || receipt.withdrawnAt || !(receipt.consentEmail || receipt.consentPhone || receipt.consentSms)) {
    return { refused: "Not sent: the visitor did not consent to be contacted, or withdrew consent" };
  }
  const person = openContact(attendee);
  if (!person.email && !person.phone) return { refused: "Not sent: the attendee's contact details were erased" };
  if (await isSuppressed(prisma, teamId, person)) return { refused: "Not sent: the person asked to be erased (suppression list)" };
  const consent = { email: receipt.consentEmail, phone: receipt.consentPhone, sms: receipt.consentSms };
  return { person, consent, report, teamName: team?.name ?? "" };
}

/** "Ada Lovelace King" → first "Ada", last "Lovelace King"; one word is a first name. */
function nameParts(name: string | null): { firstName?: string; lastName?: string } {
  const words = (name ?? "").trim().split(/\s+/).filter(Boolean);
  if (!words.length) return {};
  return words.length === 1 ? { firstName: words[0] } : { firstName: words[0], lastName: words.slice(1).join(" ") };
}

const sentence = (lead: Lead, data: SignIn) => {
  const where = lead.report ? `the open house at ${lead.report.address}` : "an open house";
  const agent = data.working_with_agent === "yes" ? " Works with an agent." : data.working_with_agent === "no" ? " Not working with an agent." : "";
  const channels = (Object.keys(lead.consent) as Array<keyof Lead["consent"]>).filter((c) => lead.consent[c]);
  return `Signed in at ${where}.${agent} Consented to be contacted by ${channels.join(", ").replace("sms", "text message")}.`;
};

/**
 * Follow Up Boss's events API: POST {base}/v1/events with HTTP Basic (the API key as user name, no password), type
 * "Visited Open House", the person and the property. The base is the destination's URL: FOLLOW_UP_BOSS_URL when it was
 * created.
 */
function followUpBoss(lead: Lead, data: SignIn, base: string, apiKey: string): CrmRequest {
  const body = {
    source: lead.teamName,
    system: "PropertyReportService",
    type: "Visited Open House",
    message: sentence(lead, data),
    person: {
      ...nameParts(lead.person.name),
      ...(lead.person.email ? { emails: [{ value: lead.person.email }] } : {}),
      ...(lead.person.phone ? { phones: [{ value: lead.person.phone }] } : {}),
    },
    ...(lead.report
      ? {
          property: {
            street: lead.report.address,
            ...(lead.report.city ? { city: lead.report.city } : {}),
            ...(lead.report.state ? { state: lead.report.state } : {}),
            ...(lead.report.zip ? { code: lead.report.zip } : {}),
            ...(lead.report.price != null ? { price: lead.report.price } : {}),
          },
        }
      : {}),
  };
  return {
    url: new URL("/v1/events", base).href,
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", "user-agent": USER_AGENT, authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}` },
  };
}

/** The lead as the JSON destination's `data`: the event's fields, the person and the property. */
export const jsonLead = (lead: Lead, data: SignIn) => ({
  ...data,
  person: { name: lead.person.name, email: lead.person.email, phone: lead.person.phone },
  consent: lead.consent,
  property: lead.report && { address: lead.report.address, city: lead.report.city, state: lead.report.state, zip: lead.report.zip, price: lead.report.price },
});

/**
 * The request of a delivery to a CRM destination, or why none is sent. `json` destinations get the event with the
 * lead in its `data`, signed as webhooks are (`sign` is the webhook signer, given by the worker).
 */
export async function crmRequest(
  d: { teamId: string; type: string; data: unknown; url: string; kind: string; crmApiKey: string | null },
  sign: (data: unknown) => { body: string; headers: Record<string, string> },
): Promise<CrmRequest> {
  if (d.type !== "visitor.signed_in") return { refused: `Not sent: a CRM destination takes ${CRM_EVENT_TYPES.join(", ")} events only` };
  const data = (d.data ?? {}) as SignIn;
  const lead = await leadOf(d.teamId, data);
  if ("refused" in lead) return lead;
  if (d.kind === "follow_up_boss") {
    const apiKey = decryptContact(d.crmApiKey);
    if (!apiKey) return { refused: "Not sent: the destination has no API key" };
    return followUpBoss(lead, data, d.url, apiKey);
  }
  return { url: d.url, ...sign(jsonLead(lead, data)) };
}
