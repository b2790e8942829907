// Preview addresses (docs/api.md "Share links", previews): the report's public page as the client will see it, for the
// agent to check before sending, without making a share link. The address carries its own proof instead of a row: the
// report, its team and an expiry, signed with a key derived from the data encryption key (src/attendees/crypto.ts),
// which every process shares. It opens the page and the PDF for PREVIEW_MINUTES, counts no view and sends no event;
// it cannot be revoked, which is why it lives minutes, not days.
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { keyring, type Keyring } from "../../../attendees/crypto";
import type { ActiveShareLink } from "./token";

export const PREVIEW_MINUTES = 10;
const PREFIX = "p1_";
const MAC_BYTES = 16;
/** p1_ + base64url of report id (16 bytes) ‖ team id (16) ‖ expiry in Unix seconds (4) ‖ MAC (16). */
const TOKEN = /^p1_[A-Za-z0-9_-]{70}$/;

const macKeys = new WeakMap<Keyring, Map<string, Buffer>>();
/** The MAC key derived from each data key of the ring, the current one first. */
function keysOf(ring: Keyring): Buffer[] {
  let keys = macKeys.get(ring);
  if (!keys) {
    keys = new Map([ring.current, ...ring.byId.values()].map((k) => [k.id, Buffer.from(hkdfSync("sha256", k.key, Buffer.alloc(0), "prs report preview", 32))]));
    macKeys.set(ring, keys);
  }
  return [...keys.values()];
}

const uuidBytes = (id: string): Buffer => Buffer.from(id.replace(/-/g, ""), "hex");
const uuidOf = (bytes: Buffer): string => bytes.toString("hex").replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
const macOf = (key: Buffer, payload: Buffer): Buffer => createHmac("sha256", key).update(payload).digest().subarray(0, MAC_BYTES);

/** A preview token of the team's report, valid PREVIEW_MINUTES from `now`. */
export function previewToken(teamId: string, reportId: string, now = new Date(), ring = keyring()): { token: string; expiresAt: Date } {
  const expires = Math.floor(now.getTime() / 1000) + PREVIEW_MINUTES * 60;
  const seconds = Buffer.alloc(4);
  seconds.writeUInt32BE(expires);
  const payload = Buffer.concat([uuidBytes(reportId), uuidBytes(teamId), seconds]);
  return { token: PREFIX + Buffer.concat([payload, macOf(keysOf(ring)[0], payload)]).toString("base64url"), expiresAt: new Date(expires * 1000) };
}

export const isPreviewToken = (token: string): boolean => TOKEN.test(token);

/** What a preview token opens while it is valid and its MAC holds under one of the ring's keys; else null. */
export function openPreviewToken(token: string, now = new Date(), ring = keyring()): (ActiveShareLink & { expiresAt: Date }) | null {
  if (!isPreviewToken(token)) return null;
  const bytes = Buffer.from(token.slice(PREFIX.length), "base64url");
  const payload = bytes.subarray(0, 36);
  const mac = bytes.subarray(36);
  if (mac.length !== MAC_BYTES || !keysOf(ring).some((key) => timingSafeEqual(macOf(key, payload), mac))) return null;
  const expiresAt = new Date(payload.readUInt32BE(32) * 1000);
  if (expiresAt <= now) return null;
  return { id: "preview", reportId: uuidOf(payload.subarray(0, 16)), teamId: uuidOf(payload.subarray(16, 32)), expiresAt };
}
