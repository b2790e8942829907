// Share-link tokens (docs/api.md "Share links"): 32 random bytes in base64url (43 characters),
// shown once when the link is made; only their SHA-256 is stored, so the table never holds a usable link.
import { hash, randomBytes } from "node:crypto";
import { prisma } from "../../../db";

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const newShareToken = (): string => randomBytes(32).toString("base64url");
export const isWellFormedShareToken = (token: string): boolean => TOKEN.test(token);
export const hashShareToken = (token: string): string => hash("sha256", token, "hex");

/** The path of a link's public page; its PDF is the same path with `.pdf`. */
export const sharePath = (token: string): string => `/r/${token}`;

export interface ActiveShareLink {
  id: string;
  teamId: string;
  reportId: string;
}

/**
 * The link a token opens, when it is well formed, known, not revoked and not expired: read from the database on
 * every request (no cache), so a revocation or an expiry holds at once on every process.
 */
export async function activeShareLink(token: string, now = new Date()): Promise<ActiveShareLink | null> {
  if (!isWellFormedShareToken(token)) return null;
  return prisma.shareLink.findFirst({
    where: { tokenHash: hashShareToken(token), revokedAt: null, expiresAt: { gt: now } },
    select: { id: true, teamId: true, reportId: true },
  });
}
