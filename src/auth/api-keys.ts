// Creating keys: shared by the GraphQL mutation, the CLI and the first-start bootstrap.
import { config } from "../config";
import { prisma } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { generateApiKey, hashApiKey, keyDisplayPrefix } from "./keys";
import { TEAM_FULL_ACCESS, type Permissions } from "./permissions";
import { DEFAULT_TIER } from "./tiers";

export interface NewKeyOptions {
  teamId: string;
  name: string;
  description?: string | null;
  expiresAt?: Date | null;
  permissions?: Permissions;
  tier?: string;
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
 * in one request, or from several processes — are counted one after another and never pass the cap.
 */
export async function createApiKey(options: NewKeyOptions, tx?: Prisma.TransactionClient): Promise<{ key: string; id: string }> {
  if (!tx) {
    // Prisma's own limits (2 s to start, 5 s in all) would be tighter than the service's time budget.
    return prisma.$transaction((t) => createApiKey(options, t), { maxWait: config.DB_TIMEOUT_MS, timeout: 2 * config.DB_TIMEOUT_MS });
  }
  await tx.$queryRaw`SELECT 1 FROM teams WHERE id = ${options.teamId}::uuid FOR UPDATE`;
  if ((await tx.apiKey.count({ where: activeKeysOf(options.teamId, new Date()) })) >= config.MAX_KEYS_PER_TEAM) {
    throw new KeyLimitReached(config.MAX_KEYS_PER_TEAM);
  }
  const key = generateApiKey();
  const row = await tx.apiKey.create({
    data: {
      teamId: options.teamId,
      name: options.name,
      description: options.description ?? null,
      expiresAt: options.expiresAt ?? null,
      permissions: options.permissions ?? TEAM_FULL_ACCESS,
      rateLimitTier: options.tier ?? DEFAULT_TIER,
      keyHash: hashApiKey(key),
      prefix: keyDisplayPrefix(key),
    },
    select: { id: true },
  });
  return { key, id: row.id };
}
