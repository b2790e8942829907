// Sign-in link tokens (docs/open-house-sign-in.md): 32 random bytes in base64url (43 characters), shown once when
// the link is made. Found by their SHA-256 (as share links'); kept besides only encrypted with the data key, so the
// service can draw the QR code of the link's URL later while a copy of the database holds no usable link.
import { createHmac, hash, randomBytes, timingSafeEqual } from "node:crypto";
import { decryptContact, encryptContact } from "../../../attendees/crypto";
import { prisma } from "../../../db";

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const newSignInToken = (): string => randomBytes(32).toString("base64url");
export const isWellFormedSignInToken = (token: string): boolean => TOKEN.test(token);
export const hashSignInToken = (token: string): string => hash("sha256", token, "hex");
export const sealSignInToken = (token: string): string => encryptContact(token);
export const openSignInToken = (sealed: string): string => decryptContact(sealed);

/** The path of a link's public form. */
export const signInPath = (token: string): string => `/s/${token}`;
/** The path of a consent receipt's withdrawal page. */
export const withdrawPath = (token: string): string => `/s/${token}/withdraw`;

export interface ActiveSignInLink {
  id: string;
  teamId: string;
  showingId: string;
  questions: string[];
  formSecret: string;
}

/**
 * The link a token opens when it is well formed, known, not revoked and not expired: read on every request (no
 * cache), so a revocation or an expiry holds at once on every process.
 */
export async function activeSignInLink(token: string, now = new Date()): Promise<ActiveSignInLink | null> {
  if (!isWellFormedSignInToken(token)) return null;
  const link = await prisma.signInLink.findFirst({
    where: { tokenHash: hashSignInToken(token), revokedAt: null, expiresAt: { gt: now } },
    select: { id: true, teamId: true, showingId: true, questions: true, formSecret: true },
  });
  return link && { ...link, questions: Array.isArray(link.questions) ? link.questions.map(String) : [] };
}

/** The form's start time, signed with the link's secret: `<ms>.<signature>` (the minimum fill time's proof). */
export function signStart(secret: string, at: number): string {
  return `${at}.${createHmac("sha256", secret).update(`start:${at}`).digest("base64url")}`;
}

/** The start time a signed value holds, or null when it was not signed with this secret. */
export function startOf(secret: string, value: string): number | null {
  const match = /^(\d{13})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return null;
  const expected = Buffer.from(signStart(secret, Number(match[1])).split(".")[1]);
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given) ? Number(match[1]) : null;
}
