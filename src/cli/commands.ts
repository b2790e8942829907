// What the `prs` commands do, on the service's own database (src/db). Arguments arrive validated (see ./prs.ts);
// each command returns the lines to print on standard output.
import { createApiKey, KeyLimitReached, KeyNotRollable, revokeApiKey, rollApiKey, type RollOverlap } from "../auth/api-keys";
import { hashApiKey, isWellFormedKey } from "../auth/keys";
import { actionsOf, type Permissions, type Resource } from "../auth/permissions";
import { readFile } from "node:fs/promises";
import { recordAudit } from "../audit/log";
import { prisma } from "../db";
import { checkManifest, DocumentLimitReached, storeDocuments } from "../graphql-documents/documents";
import { schema } from "../schema";
import { documentRefusal } from "../schema/limits";
import { CommandError } from "./usage";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function createTeam(options: { name: string; admin: string; plan?: string }): Promise<string[]> {
  const team = await prisma.team.create({
    data: { name: options.name, adminName: options.admin, ...(options.plan ? { plan: options.plan } : {}) },
    select: { id: true },
  });
  return [team.id];
}

export async function listTeams(): Promise<string[]> {
  const teams = await prisma.team.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  if (!teams.length) return ["No teams."];
  return table(
    ["ID", "NAME", "PLAN", "CREATED"],
    teams.map((t) => [t.id, t.name, t.plan, t.createdAt.toISOString()]),
  );
}

async function requireTeam(teamId: string): Promise<{ id: string; name: string }> {
  const team = await prisma.team.findUnique({ where: { id: teamId }, select: { id: true, name: true } });
  if (!team) throw new CommandError(`Team ${teamId} not found (see 'prs team list')`);
  return team;
}

export interface KeyCreateOptions {
  teamId: string;
  name: string;
  description?: string;
  expiresAt?: Date;
  permissions?: Permissions;
  tier?: string;
  trustedDocumentsOnly?: boolean;
}

export async function createKey(options: KeyCreateOptions): Promise<string[]> {
  const team = await requireTeam(options.teamId);
  const { key, id } = await createApiKey(options, undefined, "cli").catch((err: unknown) => {
    throw err instanceof KeyLimitReached ? new CommandError(err.message) : err;
  });
  const row = await prisma.apiKey.findUniqueOrThrow({ where: { id } });
  return [
    `Created key '${row.name}' for team '${team.name}' (${team.id})`,
    `  id ${row.id}, prefix ${row.prefix}, tier ${row.rateLimitTier}, expires ${row.expiresAt?.toISOString() ?? "never"}`,
    `  permissions ${formatPermissions(row.permissions as Permissions)}${row.trustedDocumentsOnly ? ", registered GraphQL documents only" : ""}`,
    "The key is shown only this once; store it now:",
    key,
  ];
}

export async function listKeys(teamId: string): Promise<string[]> {
  await requireTeam(teamId);
  const keys = await prisma.apiKey.findMany({ where: { teamId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  if (!keys.length) return [`No keys for team ${teamId}.`];
  const now = Date.now();
  const status = (k: (typeof keys)[number]) =>
    k.revokedAt ? "revoked" : k.expiresAt && k.expiresAt.getTime() <= now ? "expired" : k.replacedById ? "rolled" : "active";
  return table(
    ["ID", "PREFIX", "NAME", "TIER", "STATUS", "CREATED", "LAST USED", "EXPIRES", "PERMISSIONS"],
    keys.map((k) => [
      k.id,
      k.prefix,
      k.name,
      k.rateLimitTier,
      status(k),
      k.createdAt.toISOString(),
      k.lastUsedAt?.toISOString() ?? "-",
      k.expiresAt?.toISOString() ?? "-",
      formatPermissions(k.permissions as Permissions),
    ]),
  );
}

/** The one key `ref` names: its id, its 16-character display prefix, or the full key. */
async function findOneKey(ref: string, verb: string) {
  const where = UUID.test(ref) ? { id: ref } : isWellFormedKey(ref) ? { keyHash: hashApiKey(ref) } : { prefix: ref };
  const matches = await prisma.apiKey.findMany({ where, select: { id: true, prefix: true, name: true, teamId: true, revokedAt: true } });
  if (!matches.length) throw new CommandError(`No API key matches '${ref}' (see 'prs key list --team <team id>')`);
  if (matches.length > 1) {
    throw new CommandError(`'${ref}' matches ${matches.length} keys (${matches.map((k) => k.id).join(", ")}); ${verb} one by its id`);
  }
  const [key] = matches;
  return { ...key, label: `key ${key.id} (${key.prefix}, '${key.name}') of team ${key.teamId}` };
}

/** Revokes by id, by the 16-character display prefix, or by the full key; recorded in the audit log (actor: cli). */
export async function revokeKey(ref: string): Promise<string[]> {
  const key = await findOneKey(ref, "revoke");
  if (key.revokedAt) return [`The ${key.label} was already revoked at ${key.revokedAt.toISOString()}.`];
  await revokeApiKey(key.id, key.teamId, "cli");
  return [`Revoked ${key.label}.`];
}

/** Replaces a key (docs/api.md "Key roll"); prints the new key once, on the last line. */
export async function rollKey(ref: string, overlap: RollOverlap): Promise<string[]> {
  const key = await findOneKey(ref, "roll");
  const rolled = await rollApiKey({ teamId: key.teamId, id: key.id, overlap }, "cli").catch((err: unknown) => {
    throw err instanceof KeyLimitReached || err instanceof KeyNotRollable ? new CommandError(err.message) : err;
  });
  if (!rolled) throw new CommandError(`No API key matches '${ref}'`);
  const [old, created] = await Promise.all([prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } }), prisma.apiKey.findUniqueOrThrow({ where: { id: rolled.id } })]);
  return [
    `Rolled ${key.label}: it works until ${old.expiresAt!.toISOString()}.`,
    `New key '${created.name}': id ${created.id}, prefix ${created.prefix}, expires ${created.expiresAt?.toISOString() ?? "never"}`,
    "The key is shown only this once; store it now:",
    rolled.key,
  ];
}

/** Registers a manifest file's documents as the team's trusted documents (docs/api.md "Sharing, records and operations"). */
export async function registerDocuments(teamId: string, file: string): Promise<string[]> {
  await requireTeam(teamId);
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(file, "utf8"));
  } catch (err) {
    throw new CommandError(`Cannot read the manifest ${file}: ${(err as Error).message}`);
  }
  const entries = await checkManifest((text) => documentRefusal(schema, text), manifest);
  if (!Array.isArray(entries)) throw new CommandError(entries.message);
  const { registered, unchanged } = await prisma
    .$transaction(async (tx) => {
      const counts = await storeDocuments(tx, teamId, entries);
      if (counts.registered) {
        await recordAudit(tx, "cli", { teamId, action: "graphql_documents.registered", target: { type: "graphql_documents", id: teamId }, after: counts });
      }
      return counts;
    })
    .catch((err: unknown) => {
      throw err instanceof DocumentLimitReached ? new CommandError(err.message) : err;
    });
  return [`Registered ${registered} document${registered === 1 ? "" : "s"} (${unchanged} already registered) for team ${teamId}.`];
}

export async function listDocuments(teamId: string): Promise<string[]> {
  await requireTeam(teamId);
  const documents = await prisma.graphqlDocument.findMany({ where: { teamId }, orderBy: [{ createdAt: "asc" }, { hash: "asc" }] });
  if (!documents.length) return [`No registered documents for team ${teamId}.`];
  return table(
    ["DOCUMENT ID", "REGISTERED", "FIRST LINE"],
    documents.map((d) => [`sha256:${d.hash}`, d.createdAt.toISOString(), d.text.trim().split("\n")[0].slice(0, 80)]),
  );
}

/** `reports:*,showings:read,showings:create`: a full set of actions is shown as `*`. */
function formatPermissions(permissions: Permissions): string {
  const entries = Object.entries(permissions).filter(([, actions]) => actions?.length);
  if (!entries.length) return "(none)";
  return entries
    .flatMap(([resource, actions]) =>
      actionsOf(resource as Resource).every((a) => actions!.includes(a)) ? [`${resource}:*`] : actions!.map((a) => `${resource}:${a}`),
    )
    .join(",");
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
  return [line(header), ...rows.map(line)];
}
