// The attendee's rights (docs/data-protection.md "Requests from a person"): everything the team holds about one person
// — found by the keyed hash of their e-mail or phone — and its erasure. Looking up is attendees:read, erasing
// attendees:delete; both are audited with the keyed hash as the target, never the e-mail or phone itself.
//
// Erasure, in one transaction: the contact fields of the person's sign-ins (attendees) and of the showings naming them
// set to null (answers to the team's questions too); their consent receipts kept as the legal record, with the
// address and browser replaced by keyed hashes (the receipts' own lookup keys already are); the attendee fields of
// stored webhook events of those showings cleared (deliveries not yet sent carry nothing of them); a suppression
// entry so that no CRM destination is ever sent the person again. The showings' updates move the team's data version:
// cached answers that showed them are not served again.
import { createHmac } from "node:crypto";
import { contactIndex, contactIndexes, keyring } from "../../attendees/crypto";
import { recordAudit } from "../../audit/log";
import type { Context } from "../../context";
import { prisma } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import type { ObjectRef } from "@pothos/core";
import { builder } from "../builder";
import { badFields } from "../errors";
import { hasInvalidCharacters } from "../rules";
import { teamIdOf } from "../scope";
import { needs } from "../needs";
import { valueObject } from "../value-object";

/** The person asked about: exactly one of e-mail and phone, checked; with every lookup key it may be stored under. */
export interface Person {
  kind: "email" | "phone";
  value: string;
  keys: string[];
}

export function personOf(args: { email?: string | null; phone?: string | null }): Person {
  const given = (["email", "phone"] as const).filter((k) => args[k] != null);
  if (given.length !== 1) throw badFields((name) => `Give exactly one of ${name(["email"])} or ${name(["phone"])}`, ["email"]);
  const kind = given[0];
  const value = String(args[kind]);
  if (value.length > 320 || hasInvalidCharacters(value) || value.trim() === "") {
    throw badFields((name) => `${name([kind])} must be 1 to 320 characters of text`, [kind]);
  }
  const keys = contactIndexes(kind, value);
  if (!keys.length) throw badFields((name) => `${name([kind])} holds no ${kind === "email" ? "address" : "digit"} to look for`, [kind]);
  return { kind, value, keys };
}

/** The arguments of attendeeData and eraseAttendee: the person, by e-mail or phone (exactly one; personOf checks it). */
const personArgs = builder.args((t) => ({
  email: t.string({ description: "The person's e-mail (matched normalised: trimmed, lower case)" }),
  phone: t.string({ description: "The person's phone (matched normalised: + and digits)" }),
}));

/** The person's rows in the team (the where clauses of each table). */
export function rowsOf(teamId: string, person: Person) {
  const showings: Prisma.ShowingWhereInput =
    person.kind === "email" ? { teamId, attendeeEmailIndex: { in: person.keys } } : { teamId, attendeePhoneIndex: { in: person.keys } };
  const byIndex = person.kind === "email" ? { emailIndex: { in: person.keys } } : { phoneIndex: { in: person.keys } };
  return { showings, attendees: { teamId, ...byIndex } satisfies Prisma.AttendeeWhereInput, consents: { teamId, ...byIndex } satisfies Prisma.ConsentReceiptWhereInput };
}

const audited = (person: Person) => ({ type: "attendee" as const, id: `${person.kind}:${contactIndex(person.kind, person.value)}` });

/** A keyed hash of a receipt's address or browser: the record keeps that one was given, not what it was. */
const pseudonym = (value: string) => `hmac:${createHmac("sha256", keyring().current.indexKey).update(`receipt\0${value}`).digest("base64url")}`;

export interface Erased {
  signIns: number;
  showings: number;
  consentsPseudonymised: number;
}

export async function erasePerson(actor: Context | "cli", teamId: string, person: Person): Promise<Erased> {
  const where = rowsOf(teamId, person);
  return prisma.$transaction(async (tx) => {
    const showings = await tx.showing.findMany({ where: where.showings, select: { id: true } });
    const showingIds = showings.map((s) => s.id);
    const erasedShowings = showingIds.length
      ? (
          await tx.showing.updateMany({
            where: { id: { in: showingIds } },
            data: { attendeeName: null, attendeeEmail: null, attendeePhone: null, attendeeEmailIndex: null, attendeePhoneIndex: null },
          })
        ).count
      : 0;
    if (showingIds.length) {
      // Stored events of these showings (sent or not): their attendee fields cleared.
      await tx.$executeRaw`
        UPDATE webhook_events SET data = data || '{"attendee_name": null, "attendee_email": null, "attendee_phone": null}'::jsonb
        WHERE team_id = ${teamId}::uuid AND type LIKE 'showing.%' AND data->>'id' = ANY (${showingIds}::text[])`;
    }
    const signIns = (
      await tx.attendee.updateMany({ where: where.attendees, data: { name: null, email: null, phone: null, emailIndex: null, phoneIndex: null, answers: [] } })
    ).count;
    const receipts = await tx.consentReceipt.findMany({ where: where.consents, select: { id: true, ip: true, userAgent: true } });
    let consentsPseudonymised = 0;
    if (receipts.length) {
      await tx.$executeRaw`SELECT set_config('prs.attendee_erase', 'on', true)`;
      for (const r of receipts) {
        if ((r.ip === null || r.ip.startsWith("hmac:")) && (r.userAgent === null || r.userAgent.startsWith("hmac:"))) continue;
        await tx.consentReceipt.update({
          where: { id: r.id },
          data: { ip: r.ip && !r.ip.startsWith("hmac:") ? pseudonym(r.ip) : r.ip, userAgent: r.userAgent && !r.userAgent.startsWith("hmac:") ? pseudonym(r.userAgent) : r.userAgent },
        });
        consentsPseudonymised++;
      }
      await tx.$executeRaw`SELECT set_config('prs.attendee_erase', 'off', true)`;
    }
    const index = contactIndex(person.kind, person.value);
    await tx.attendeeSuppression.create({ data: { teamId, ...(person.kind === "email" ? { emailIndex: index } : { phoneIndex: index }) } });
    const erased = { signIns, showings: erasedShowings, consentsPseudonymised };
    await recordAudit(tx, actor, {
      teamId,
      action: "attendee.erased",
      target: audited(person),
      before: null,
      after: { by: person.kind, sign_ins: signIns, showings: erasedShowings, consents_pseudonymised: consentsPseudonymised },
    });
    return erased;
  });
}

/** Records that the person's data was looked up (who asked, which kind of identifier, how much was found). */
export async function recordExport(actor: Context | "cli", teamId: string, person: Person, counts: { signIns: number; showings: number; consents: number }): Promise<void> {
  await prisma.$transaction((tx) =>
    recordAudit(tx, actor, {
      teamId,
      action: "attendee.exported",
      target: audited(person),
      before: null,
      after: { by: person.kind, sign_ins: counts.signIns, showings: counts.showings, consents: counts.consents },
    }),
  );
}

interface PersonData {
  teamId: string;
  person: Person;
  signIns: Prisma.AttendeeGetPayload<object>[];
  showings: Prisma.ShowingGetPayload<object>[];
  consents: Prisma.ConsentReceiptGetPayload<object>[];
}

/** Everything the team holds about the person, newest first in each list (at most 1,000 rows of each). */
export async function personData(teamId: string, person: Person): Promise<PersonData> {
  const where = rowsOf(teamId, person);
  const newest = [{ createdAt: "desc" as const }, { id: "desc" as const }];
  const [signIns, showings, consents] = await Promise.all([
    prisma.attendee.findMany({ where: where.attendees, orderBy: newest, take: 1000 }),
    prisma.showing.findMany({ where: where.showings, orderBy: newest, take: 1000 }),
    prisma.consentReceipt.findMany({ where: where.consents, orderBy: newest, take: 1000 }),
  ]);
  return { teamId, person, signIns, showings, consents };
}

// The Prisma object types of src/schema/resources (registered by name); Pothos resolves the names when it builds.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the builder's type set
const listOf = <T>(name: string) => [name] as unknown as [ObjectRef<any, T>];

const AttendeeDataType = builder.objectRef<PersonData>("AttendeeData").implement({
  description: "Everything the team holds about one person (by e-mail or phone): sign-ins, showings naming them, consent receipts.",
  fields: (t) => ({
    signIns: t.field({ type: listOf<PersonData["signIns"][number]>("Attendee"), description: "The person's sign-ins to open houses (one attendee per open house)", resolve: (d) => d.signIns }),
    showings: t.field({ type: listOf<PersonData["showings"][number]>("Showing"), description: "Showings whose attendee fields name the person", resolve: (d) => d.showings }),
    consents: t.field({ type: listOf<PersonData["consents"][number]>("ConsentReceipt"), description: "The person's consent receipts, withdrawn ones included", resolve: (d) => d.consents }),
  }),
});

const ErasedType = valueObject<Erased>("AttendeeErasure", "What an erasure changed.", {
  signIns: ["Int", "Sign-ins (attendees) whose contact fields were erased"],
  showings: ["Int", "Showings whose attendee fields were erased"],
  consentsPseudonymised: ["Int", "Consent receipts kept with the address and browser replaced by keyed hashes"],
});

builder.queryFields((t) => ({
  attendeeData: t.field({
    type: AttendeeDataType,
    ...needs("attendees:read", "Everything the team holds about one person, by e-mail or phone (exactly one): sign-ins, showings naming them and consent receipts. Recorded in the audit log (attendee.exported)."),
    args: personArgs,
    resolve: async (_root, args, ctx) => {
      const teamId = teamIdOf(ctx);
      const person = personOf(args);
      const data = await personData(teamId, person);
      await recordExport(ctx, teamId, person, { signIns: data.signIns.length, showings: data.showings.length, consents: data.consents.length });
      return data;
    },
  }),
}));

builder.mutationFields((t) => ({
  eraseAttendee: t.field({
    type: ErasedType,
    ...needs("attendees:delete", "Erases one person's contact data in the team, by e-mail or phone (exactly one): sign-ins' and showings' contact fields cleared, consent receipts kept with keyed hashes in place of address and browser, and the person never sent to a CRM again. Recorded in the audit log (attendee.erased)."),
    args: personArgs,
    resolve: (_root, args, ctx) => erasePerson(ctx, teamIdOf(ctx), personOf(args)),
  }),
}));
