// `prs sign-in-links create|list|revoke` (docs/open-house-sign-in.md): the same work as the API's sign-in link routes
// (src/schema/resources/sign-in/links.ts), audited with actor cli. The token is printed once, by create.
import { writeFile } from "node:fs/promises";
import { GraphQLError } from "graphql";
import { prisma } from "../db";
import { createSignInLink, qrCode, revokeSignInLink, showingIdOfTeam } from "../schema/resources/sign-in/links";
import { signInPath } from "../schema/resources/sign-in/token";
import { CommandError } from "./usage";

/** The schema's refusals (unknown showing, an expiry too far ahead) as the CLI's: exit code 1, the same words. */
async function refusals<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof GraphQLError) throw new CommandError(err.message.replace(/^input\.expiresAt\b/, "--expires"));
    throw err;
  }
}

async function team(teamId: string): Promise<void> {
  if (!(await prisma.team.findUnique({ where: { id: teamId }, select: { id: true } }))) throw new CommandError(`No team with id ${teamId}`);
}

export interface CreateLinkOptions {
  teamId: string;
  showing: string;
  label?: string;
  expiresAt?: Date;
  /** The service's public address: the form's full URL is printed, and a QR code of it can be written. */
  baseUrl?: string;
  /** Where to write the QR code of the URL (.svg or .png; needs baseUrl). */
  qr?: string;
}

export async function createLink(options: CreateLinkOptions): Promise<string[]> {
  await team(options.teamId);
  const { link, token } = await refusals(() => createSignInLink("cli", options.teamId, options.showing, { label: options.label, expiresAt: options.expiresAt }));
  const made = await prisma.signInLink.findUniqueOrThrow({ where: { id: link.id }, select: { showingId: true, expiresAt: true } });
  const path = signInPath(token);
  const url = options.baseUrl ? `${options.baseUrl.replace(/\/+$/, "")}${path}` : undefined;
  const lines = [`Sign-in link ${link.id} for showing ${made.showingId}, until ${made.expiresAt.toISOString()}.`];
  if (url && options.qr) {
    // The link is made: a file that cannot be written must not lose its form, printed below and never again.
    try {
      const code = await qrCode(url, options.qr.toLowerCase().endsWith(".png") ? "PNG" : "SVG");
      await writeFile(options.qr, code.mediaType === "image/png" ? Buffer.from(code.content, "base64") : code.content);
      lines.push(`QR code of its URL written to ${options.qr}.`);
    } catch (err) {
      lines.push(`Could not write the QR code to ${options.qr} (${(err as Error).message}); the API draws it again (qr_svg_url, qr_png_url).`);
    }
  }
  lines.push("Its form (shown only this once; it holds the token):", url ?? `${path}  (on this service's address)`);
  return lines;
}

export async function listLinks(teamId: string, showing: string): Promise<string[]> {
  await team(teamId);
  const showingId = await refusals(() => showingIdOfTeam(teamId, showing));
  const links = await prisma.signInLink.findMany({ where: { teamId, showingId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true, label: true, expiresAt: true, revokedAt: true, createdAt: true } });
  if (!links.length) return [`No sign-in link for showing ${showingId}.`];
  const now = Date.now();
  const state = (l: (typeof links)[number]) => (l.revokedAt ? "revoked" : l.expiresAt.getTime() <= now ? "expired" : "active");
  return links.map((l) => `${l.id}  ${state(l).padEnd(7)}  until ${l.expiresAt.toISOString()}  ${l.label ?? ""}`.trimEnd());
}

export async function revokeLink(teamId: string, showing: string, linkId: string): Promise<string[]> {
  await team(teamId);
  const before = await prisma.signInLink.findFirst({ where: { id: linkId, teamId }, select: { revokedAt: true } });
  const where = await refusals(() => revokeSignInLink("cli", teamId, showing, linkId));
  const link = where && (await prisma.signInLink.findFirst({ where, select: { id: true, revokedAt: true } }));
  if (!link || !before) throw new CommandError(`No sign-in link ${linkId} for showing ${showing} in team ${teamId}`);
  return [before.revokedAt ? `Sign-in link ${link.id} was already revoked (${before.revokedAt.toISOString()}).` : `Revoked sign-in link ${link.id}: its form answers 404 from now on.`];
}
