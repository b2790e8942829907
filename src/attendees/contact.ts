// How a sign-in's contact fields (name, e-mail, phone) are stored and matched: the one place the sign-in code
// writes or reads them (docs/open-house-sign-in.md "Storage"). Values are encrypted by ./crypto.ts (AES-256-GCM under
// DATA_ENCRYPTION_KEY) and matched by their keyed hashes (blind indexes), so the attendees and consent_receipts
// tables hold no readable contact.
import type { Prisma } from "../generated/prisma/client";
import { contactIndex, contactIndexes, decryptContact, encryptContact } from "./crypto";

export interface Contact {
  name: string;
  email: string | null;
  phone: string | null;
}

/** The columns a contact is stored in: the sealed values and the lookup keys of e-mail and phone. */
export interface StoredContact {
  name: string | null;
  email: string | null;
  phone: string | null;
  emailIndex: string | null;
  phoneIndex: string | null;
}

export function sealContact(contact: Contact): StoredContact {
  return {
    name: encryptContact(contact.name),
    email: encryptContact(contact.email),
    phone: encryptContact(contact.phone),
    ...contactKeys(contact),
  };
}

/** The lookup keys of an e-mail and a phone (null for a value not given). */
export const contactKeys = (contact: { email?: string | null; phone?: string | null }) => ({
  emailIndex: contactIndex("email", contact.email),
  phoneIndex: contactIndex("phone", contact.phone),
});

/** Every lookup key a stored row of this e-mail or phone may carry (old keys' too, during a key rotation). */
export const lookupKeys = (kind: "email" | "phone", value: string | null | undefined): string[] => contactIndexes(kind, value);

export function openContact(stored: { name: string | null; email: string | null; phone: string | null }): { name: string | null; email: string | null; phone: string | null } {
  return { name: decryptContact(stored.name), email: decryptContact(stored.email), phone: decryptContact(stored.phone) };
}

/**
 * Whether the team has been asked to erase the person owning this e-mail or phone (lookup keys of any known key): such
 * a person is never pushed to a CRM again (docs/data-protection.md).
 */
export async function isSuppressed(
  db: Pick<Prisma.TransactionClient, "attendeeSuppression">,
  teamId: string,
  contact: { email?: string | null; phone?: string | null },
): Promise<boolean> {
  const emails = contactIndexes("email", contact.email);
  const phones = contactIndexes("phone", contact.phone);
  if (!emails.length && !phones.length) return false;
  const found = await db.attendeeSuppression.findFirst({
    where: { teamId, OR: [...(emails.length ? [{ emailIndex: { in: emails } }] : []), ...(phones.length ? [{ phoneIndex: { in: phones } }] : [])] },
    select: { id: true },
  });
  return found !== null;
}
