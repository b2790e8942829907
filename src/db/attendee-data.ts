// Attendee contact data at rest (docs/data-protection.md): the columns that hold it encrypted (src/attendees/crypto.ts),
// and the two passes over them that SQL cannot make — AES-GCM under the application's key is computed here:
// - after the migrations, values still stored in plain text (written before encryption existed) are encrypted and
//   their keyed hashes written (sealPlainAttendeeData, run by Database.migrate, so by every start and `prs`);
// - `prs keys rotate-data-key` re-encrypts every value not under the current key (rotateAttendeeData).
// Both go in batches of rows by id, each row updated only if it still holds what was read (a concurrent write wins).
import { contactIndex, decryptContact, encryptContact, isEncrypted, keyring, type ContactKind } from "../attendees/crypto";
import type { PrismaClient } from "../generated/prisma/client";

interface SealedColumn {
  column: string;
  /** The column holding the keyed hash of this value, and what kind of value it is. */
  index?: { column: string; kind: ContactKind };
}

interface SealedTable {
  table: string;
  columns: SealedColumn[];
}

/** Every column of attendee contact data (and the secrets stored with the same key). Tables not there yet are skipped. */
export const SEALED_TABLES: SealedTable[] = [
  {
    table: "showings",
    columns: [
      { column: "attendee_name" },
      { column: "attendee_email", index: { column: "attendee_email_index", kind: "email" } },
      { column: "attendee_phone", index: { column: "attendee_phone_index", kind: "phone" } },
    ],
  },
  {
    table: "attendees",
    columns: [{ column: "name" }, { column: "email", index: { column: "email_index", kind: "email" } }, { column: "phone", index: { column: "phone_index", kind: "phone" } }],
  },
  { table: "sign_in_links", columns: [{ column: "token_sealed" }] },
  { table: "webhook_endpoints", columns: [{ column: "crm_api_key" }] },
];

const BATCH = 500;

async function existing(prisma: PrismaClient, table: SealedTable): Promise<SealedColumn[]> {
  const rows = await prisma.$queryRawUnsafe<{ column_name: string }[]>(
    "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
    table.table,
  );
  const names = new Set(rows.map((r) => r.column_name));
  return table.columns.filter((c) => names.has(c.column) && (!c.index || names.has(c.index.column)));
}

/**
 * Rewrites, batch by batch, the rows of every sealed table where `stale` (SQL over one column, `$1` the current key
 * id) holds for a value: decrypted (plain text as it is), encrypted under the current key, keyed hashes recomputed.
 * Returns the rows rewritten per table.
 */
async function rewrite(prisma: PrismaClient, stale: (column: string) => string, batch = BATCH, teamId?: string): Promise<Record<string, number>> {
  const ring = keyring();
  const done: Record<string, number> = {};
  for (const table of SEALED_TABLES) {
    const columns = await existing(prisma, table);
    if (!columns.length) continue;
    const q = (name: string) => `"${name}"`;
    const condition = columns.map((c) => `(${q(c.column)} IS NOT NULL AND ${stale(q(c.column))})`).join(" OR ");
    let after = "00000000-0000-0000-0000-000000000000";
    let count = 0;
    for (;;) {
      const rows = await prisma.$queryRawUnsafe<Record<string, string | null>[]>(
        `SELECT id::text AS id, ${columns.map((c) => q(c.column)).join(", ")} FROM ${q(table.table)}
         WHERE $1::text IS NOT NULL AND id > $2::uuid AND (${condition}) AND ($3::uuid IS NULL OR team_id = $3::uuid) ORDER BY id LIMIT ${batch}`,
        ring.current.id,
        after,
        teamId ?? null,
      );
      for (const row of rows) {
        const sets: string[] = [];
        const values: unknown[] = [row.id];
        const checks: string[] = [];
        for (const c of columns) {
          const stored = row[c.column];
          values.push(stored);
          checks.push(`${q(c.column)} IS NOT DISTINCT FROM $${values.length}`);
          if (stored === null) continue;
          const plain = decryptContact(stored, ring);
          values.push(encryptContact(plain, ring));
          sets.push(`${q(c.column)} = $${values.length}`);
          if (c.index) {
            values.push(contactIndex(c.index.kind, plain, ring));
            sets.push(`${q(c.index.column)} = $${values.length}`);
          }
        }
        if (!sets.length) continue;
        count += await prisma.$executeRawUnsafe(`UPDATE ${q(table.table)} SET ${sets.join(", ")} WHERE id = $1::uuid AND ${checks.join(" AND ")}`, ...values);
      }
      if (rows.length < batch) break;
      after = rows[rows.length - 1].id!;
    }
    done[table.table] = count;
  }
  return done;
}

/** Encrypts the values still stored in plain text (before encryption existed), with their keyed hashes. */
export function sealPlainAttendeeData(prisma: PrismaClient): Promise<Record<string, number>> {
  return rewrite(prisma, (column) => `${column} NOT LIKE 'e1.%'`);
}

/**
 * Re-encrypts every value not under the current key (after DATA_ENCRYPTION_KEY changed), in batches of `batch` rows;
 * `teamId`: only that team's rows.
 */
export function rotateAttendeeData(prisma: PrismaClient, batch = BATCH, teamId?: string): Promise<Record<string, number>> {
  return rewrite(prisma, (column) => `${column} NOT LIKE 'e1.' || $1 || '.%'`, batch, teamId);
}

/** Whether a stored value is encrypted (the dump test and `prs keys` report use it). */
export const isSealed = (value: string): boolean => isEncrypted(value);
