// How a showing's attendee fields are written: encrypted, with the keyed hashes of the e-mail and phone beside them
// (docs/data-protection.md). Every write of attendee_name, attendee_email or attendee_phone goes through here.
import { contactIndex, encryptContact } from "../../../attendees/crypto";

interface AttendeeInput {
  attendeeName?: string | null;
  attendeeEmail?: string | null;
  attendeePhone?: string | null;
}

/** `input` with its attendee fields (those given) encrypted and their lookup keys set; other fields as they are. */
export function sealShowingAttendee<T extends AttendeeInput>(input: T): T & { attendeeEmailIndex?: string | null; attendeePhoneIndex?: string | null } {
  const out: T & { attendeeEmailIndex?: string | null; attendeePhoneIndex?: string | null } = { ...input };
  if (input.attendeeName !== undefined) out.attendeeName = encryptContact(input.attendeeName);
  if (input.attendeeEmail !== undefined) {
    out.attendeeEmail = encryptContact(input.attendeeEmail);
    out.attendeeEmailIndex = contactIndex("email", input.attendeeEmail);
  }
  if (input.attendeePhone !== undefined) {
    out.attendeePhone = encryptContact(input.attendeePhone);
    out.attendeePhoneIndex = contactIndex("phone", input.attendeePhone);
  }
  return out;
}
