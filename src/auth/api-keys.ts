// Creating keys: shared by the GraphQL mutation, the CLI and the first-start bootstrap.
import { prisma } from "../db";
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

/** Creates a key and returns it in full; only its hash is stored. Shared by the mutation, the CLI and bootstrap. */
export async function createApiKey(options: NewKeyOptions, db: Pick<typeof prisma, "apiKey"> = prisma): Promise<{ key: string; id: string }> {
  const key = generateApiKey();
  const row = await db.apiKey.create({
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
