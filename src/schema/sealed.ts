// Fields stored encrypted (attendee contact data, docs/data-protection.md): a field table entry spreads
// `...sealed("attendeeEmail", true)` and is answered decrypted by its resolver and in webhook payloads. The
// one-statement read path selects the stored value as it is and opens it after the statement, in Node
// (openStoredValue in sql-json/run.ts): the database never sees the key (ARCHITECTURE.md "The two read engines").
/* eslint-disable @typescript-eslint/no-explicit-any -- rows and Pothos' field builder are untyped here, as in computed.ts */
import { decryptContact, isEncrypted, keyring, storedKeyId } from "../attendees/crypto";
import type { RowSql } from "./computed";

export function sealed(field: string, nullable: boolean) {
  const valueOf = (row: any) => decryptContact((row[field] as string | null | undefined) ?? null);
  return {
    value: valueOf,
    // No field-level `select`: the prisma objects carrying sealed fields load whole rows, and a `select` here made
    // Pothos read every showing under a report's `showings` a second time by id (one more statement per request).
    build: (t: any, description: string) => t.string({ nullable, description, resolve: valueOf }),
    sql: (row: RowSql) => row.column(field),
  };
}

/**
 * A string of a one-statement answer as the resolvers give it: a stored encrypted value (an e1.<key id>.… string of
 * a known key) opened, anything else as it is — a text that merely looks like one fails its authentication tag and
 * stays as written.
 */
export function openStoredValue(value: string): string {
  if (!isEncrypted(value)) return value;
  const id = storedKeyId(value);
  if (!id || !keyring().byId.has(id)) return value;
  try {
    return decryptContact(value);
  } catch {
    return value;
  }
}
