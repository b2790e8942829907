// Creating and rolling keys: shared by the GraphQL mutations, the CLI and the first-start bootstrap.
import { config } from "../config";
import { prisma } from "../db";
import { recordAudit, type AuditActor } from "../audit/log";
import type { ApiKey, Prisma } from "../generated/prisma/client";
import { generateApiKey, hashApiKey, keyDisplayPrefix } from "./keys";
import { TEAM_FULL_ACCESS, type Permissions } from "./permissions";
import { DEFAULT_TIER } from "./tiers";

export interface NewKeyOptions {
  teamId: string;
  /** The hourly budget the key spends, when not its own (a rolled key's successor: its predecessor's). */
  budgetKeyId?: string | null;
  name: string;
  description?: string | null;
  expiresAt?: Date | null;
  permissions?: Permissions;
  tier?: string;
  /** Runs registered GraphQL documents only (docs/api.md "Trusted documents"). */
  trustedDocumentsOnly?: boolean;
}

/** The team already holds as many active keys as it may (config MAX_KEYS_PER_TEAM): answered 400 by every caller. */
export class KeyLimitReached extends Error {
  constructor(readonly max: number) {
    super(`Key limit reached: a team holds at most ${max} active keys; revoke one first`);
  }
}

/** Keys of `teamId` that work at `now`: not revoked, not expired. */
export const activeKeysOf = (teamId: string, now: Date) => ({ teamId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

/**
 * Creates a key and returns it in full; only its hash is stored. Shared by the mutation, the CLI and bootstrap.
 * Throws KeyLimitReached when the team holds MAX_KEYS_PER_TEAM active keys. The count and the insert run in one
 * transaction holding the team's row lock (`tx`, when the caller has one), so creates arriving together — aliased
 * in one request, or from several processes — are counted one after another and never pass the cap. With `audit`
 * (the request's context, or "cli"), the creation is recorded in the audit log by the same transaction.
 */
export async function createApiKey(options: NewKeyOptions, tx?: Prisma.TransactionClient, audit?: AuditActor): Promise<{ key: string; id: string }> {
  if (!tx) return inTransaction((t) => createApiKey(options, t, audit));
  await lockTeam(tx, options.teamId);
  await refuseAtCap(tx, options.teamId);
  const created = await insertKey(tx, options);
  if (audit) {
    const row = await tx.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    await recordAudit(tx, audit, { teamId: options.teamId, action: "api_key.created", target: { type: "api_key", id: row.id }, after: keyFields(row) });
  }
  return created;
}

// Prisma's own limits (2 s to start, 5 s in all) would be tighter than the service's time budget.
const inTransaction = <T>(fn: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> =>
  prisma.$transaction(fn, { maxWait: config.DB_TIMEOUT_MS, timeout: 2 * config.DB_TIMEOUT_MS });

/**
 * The team's row lock, held to the end of the transaction: the count of its active keys and the insert that follows
 * run one transaction after another, whichever process they come from.
 */
async function lockTeam(tx: Prisma.TransactionClient, teamId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM teams WHERE id = ${teamId}::uuid FOR UPDATE`;
}

/** Throws KeyLimitReached at the cap (`except`: a key that stops working in this transaction, not counted). */
async function refuseAtCap(tx: Prisma.TransactionClient, teamId: string, except?: string): Promise<void> {
  const active = { ...activeKeysOf(teamId, new Date()), ...(except ? { id: { not: except } } : {}) };
  if ((await tx.apiKey.count({ where: active })) >= config.MAX_KEYS_PER_TEAM) throw new KeyLimitReached(config.MAX_KEYS_PER_TEAM);
}

async function insertKey(tx: Prisma.TransactionClient, options: NewKeyOptions): Promise<{ key: string; id: string }> {
  const key = generateApiKey();
  const row = await tx.apiKey.create({
    data: {
      teamId: options.teamId,
      name: options.name,
      description: options.description ?? null,
      expiresAt: options.expiresAt ?? null,
      permissions: options.permissions ?? TEAM_FULL_ACCESS,
      rateLimitTier: options.tier ?? DEFAULT_TIER,
      budgetKeyId: options.budgetKeyId ?? null,
      trustedDocumentsOnly: options.trustedDocumentsOnly ?? false,
      keyHash: hashApiKey(key),
      prefix: keyDisplayPrefix(key),
    },
    select: { id: true },
  });
  return { key, id: row.id };
}

/** A key's fields as the audit log may show them (REST names; never the hash). */
export const keyFields = (row: ApiKey): Record<string, unknown> => ({
  name: row.name,
  description: row.description,
  prefix: row.prefix,
  permissions: row.permissions,
  rate_limit_tier: row.rateLimitTier,
  expires_at: row.expiresAt,
  revoked_at: row.revokedAt,
});

/** How long a rolled key keeps working beside its replacement (docs/api.md "Key roll"). */
export const ROLL_OVERLAPS = { NONE: 0, HOUR: 3_600_000, DAY: 86_400_000, WEEK: 7 * 86_400_000 } as const;
export type RollOverlap = keyof typeof ROLL_OVERLAPS;

/** A key that cannot be rolled: revoked, expired, or already replaced. Answered 400 by every caller. */
export class KeyNotRollable extends Error {}

/**
 * Rolls key `id` of team `teamId`: a new key with the same name, description, permissions, tier and expiry (returned
 * in full, once), and the old key's expiry brought forward to the end of the overlap — the time every key check
 * compares with the clock at each request, so the old key answers 401 on every process from that instant. The new
 * key spends the old one's hourly budget (budget_key_id): both count against one budget during the overlap, and a
 * roll never starts a fresh budget. Recorded in the audit log by the same transaction. Undefined when the team has
 * no such key. The cap counts under the team's lock as a creation does: the old key is left out only when it stops at
 * once (overlap NONE); during an overlap both keys are active, so at the cap only a roll without overlap is allowed.
 */
export async function rollApiKey(
  options: { teamId: string; id: string; overlap: RollOverlap },
  audit: AuditActor,
): Promise<{ key: string; id: string; previousId: string } | undefined> {
  return inTransaction(async (tx) => {
    await lockTeam(tx, options.teamId);
    const old = await tx.apiKey.findFirst({ where: { id: options.id, teamId: options.teamId } });
    if (!old) return undefined;
    const now = new Date();
    if (old.revokedAt) throw new KeyNotRollable("API key is revoked: it cannot be rolled");
    if (old.replacedById) throw new KeyNotRollable("API key was already rolled: roll the key that replaced it");
    if (old.expiresAt && old.expiresAt <= now) throw new KeyNotRollable("API key has expired: it cannot be rolled");
    await refuseAtCap(tx, options.teamId, ROLL_OVERLAPS[options.overlap] === 0 ? old.id : undefined);
    const created = await insertKey(tx, {
      teamId: old.teamId,
      name: old.name,
      description: old.description,
      expiresAt: old.expiresAt,
      permissions: old.permissions as Permissions,
      tier: old.rateLimitTier,
      budgetKeyId: old.budgetKeyId ?? old.id,
      trustedDocumentsOnly: old.trustedDocumentsOnly,
    });
    const overlapEnds = new Date(now.getTime() + ROLL_OVERLAPS[options.overlap]);
    const expiresAt = old.expiresAt && old.expiresAt < overlapEnds ? old.expiresAt : overlapEnds;
    await tx.apiKey.update({ where: { id: old.id }, data: { expiresAt, replacedById: created.id } });
    await recordAudit(tx, audit, {
      teamId: old.teamId,
      action: "api_key.rolled",
      target: { type: "api_key", id: old.id },
      before: { expires_at: old.expiresAt, replaced_by_key_id: null },
      after: { expires_at: expiresAt, replaced_by_key_id: created.id },
    });
    return { ...created, previousId: old.id };
  });
}

/**
 * Revokes key `id` of team `teamId` unless it already is (then nothing changes), recording it in the audit log by the
 * same transaction. Answers whether this call revoked it.
 */
export function revokeApiKey(id: string, teamId: string, audit: AuditActor): Promise<boolean> {
  return inTransaction(async (tx) => {
    const before = await tx.apiKey.findFirst({ where: { id, teamId, revokedAt: null } });
    if (!before) return false;
    const { count } = await tx.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
    if (!count) return false;
    const after = await tx.apiKey.findUniqueOrThrow({ where: { id } });
    await recordAudit(tx, audit, { teamId, action: "api_key.revoked", target: { type: "api_key", id }, before: keyFields(before), after: keyFields(after) });
    return true;
  });
}
