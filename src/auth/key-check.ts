// The key check's executor side (ARCHITECTURE.md "The key check"): a request the auth middleware admitted with the
// key row this process read last carries a KeyCheck (src/context.ts) naming the row; the executor confirms it before
// anything touches data and records the answer in `held`. The one-statement read path compares the row inside its own
// statement (`keyRowHolds`, key-lookup.ts); any other read confirms it here, by reading the key. Counting the call and
// deciding what a changed key means are the middleware's (keyCheckAnswered, keyCheckFailed).
import type { KeyCheck } from "../context";
import { findKey, type KeyRow } from "./key-lookup";

/** A key row that lets a request through at `now`: found, not revoked, not expired. */
export const isValidKey = (key: KeyRow | undefined, now: number): key is KeyRow =>
  Boolean(key && !key.revoked_at && !(key.expires_at && new Date(key.expires_at).getTime() <= now));

/** Reads the key and records whether the row the request was admitted with still holds (the same version, valid). */
export async function confirmKeyRow(check: KeyCheck): Promise<boolean> {
  const stored = await findKey(check.keyHash);
  // The same version of the row: the same viewer, limit and validity (key-lookup.ts).
  return (check.held = isValidKey(stored, Date.now()) && stored.version === check.row.version);
}
