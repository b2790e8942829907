// First start on an empty database: one team and one key with every permission, so `npm start` alone gives a
// usable service. Runs under an advisory lock, so several processes starting together create it only once.
import { ALL_PERMISSIONS } from "./auth/permissions";
import { prisma } from "./db";
import { createApiKey } from "./auth/api-keys";

const LOCK_ID = 72_707_371;

/** Returns the new key when this call created the first team, otherwise null. */
export async function bootstrapFirstTeam(): Promise<{ teamId: string; key: string } | null> {
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_ID})`;
    if ((await tx.team.count()) > 0) return null;
    const team = await tx.team.create({ data: { name: "My Team", adminName: "Admin" }, select: { id: true } });
    const { key } = await createApiKey({ teamId: team.id, name: "First key", permissions: ALL_PERMISSIONS }, tx);
    return { teamId: team.id, key };
  });
}
