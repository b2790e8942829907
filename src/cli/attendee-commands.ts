// `prs attendees show|erase` and `prs keys rotate-data-key` (docs/data-protection.md): the same work as the API's
// GET /v1/attendees and POST /v1/attendees/erase (src/schema/resources/attendee-rights.ts), audited with actor cli.
import { prisma } from "../db";
import { rotateAttendeeData } from "../db/attendee-data";
import { decryptContact, keyring } from "../attendees/crypto";
import { erasePerson, personData, personOf, recordExport } from "../schema/resources/attendee-rights";
import { CommandError } from "./usage";

async function team(teamId: string): Promise<void> {
  if (!(await prisma.team.findUnique({ where: { id: teamId }, select: { id: true } }))) throw new CommandError(`No team with id ${teamId}`);
}

function person(who: { email?: string; phone?: string }) {
  try {
    return personOf(who);
  } catch (err) {
    throw new CommandError((err as Error).message.replace(/\bemail\b/, "--email").replace(/\bphone\b/, "--phone"));
  }
}

export async function showAttendee(teamId: string, who: { email?: string; phone?: string }): Promise<string[]> {
  await team(teamId);
  const p = person(who);
  const data = await personData(teamId, p);
  await recordExport("cli", teamId, p, { signIns: data.signIns.length, showings: data.showings.length, consents: data.consents.length });
  const out = {
    sign_ins: data.signIns.map((a) => ({ id: a.id, showing_id: a.showingId, name: decryptContact(a.name), email: decryptContact(a.email), phone: decryptContact(a.phone), created_at: a.createdAt })),
    showings: data.showings.map((s) => ({
      id: s.id,
      report_id: s.reportId,
      attendee_name: decryptContact(s.attendeeName),
      attendee_email: decryptContact(s.attendeeEmail),
      attendee_phone: decryptContact(s.attendeePhone),
      created_at: s.createdAt,
    })),
    consents: data.consents.map((c) => ({ id: c.id, showing_id: c.showingId, channels: { email: c.consentEmail, phone: c.consentPhone, sms: c.consentSms }, created_at: c.createdAt, withdrawn_at: c.withdrawnAt })),
  };
  return [JSON.stringify(out, null, 2)];
}

export async function eraseAttendee(teamId: string, who: { email?: string; phone?: string }): Promise<string[]> {
  await team(teamId);
  const erased = await erasePerson("cli", teamId, person(who));
  return [`Erased: ${erased.showings} showing(s), ${erased.signIns} sign-in(s); ${erased.consentsPseudonymised} consent receipt(s) kept pseudonymised. The person is on the suppression list.`];
}

export async function rotateDataKey(batch: number): Promise<string[]> {
  const done = await rotateAttendeeData(prisma, batch);
  const lines = Object.entries(done).map(([table, rows]) => `  ${table}: ${rows} row(s) re-encrypted`);
  return [`Current key id ${keyring().current.id}.`, ...lines, "Done: every value is under the current key."];
}
