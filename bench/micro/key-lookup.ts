// CPU per API-key lookup: Prisma findUnique vs $queryRaw vs a prepared statement on the pg pool (PostgreSQL only).
// DATABASE_URL=… NODE_ENV=production tsx bench/micro/key-lookup.ts
import pg from "pg";
import { database, prisma } from "../../src/db";
(async () => {
  await database.migrate();
  const team = await prisma.team.create({ data: { name: "T", adminName: "A" } });
  const key = await prisma.apiKey.create({ data: { teamId: team.id, name: "k", keyHash: `h${Date.now()}`, prefix: "p", permissions: {} } });
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
  const N = 2000;
  const time = async (label: string, fn: () => Promise<unknown>) => {
    for (let i = 0; i < 200; i++) await fn();
    const c0 = process.cpuUsage(); const t0 = Date.now();
    for (let i = 0; i < N; i++) await fn();
    const c = process.cpuUsage(c0);
    console.log(label, ((c.user + c.system) / 1000 / N).toFixed(3), "ms cpu/call", ((Date.now() - t0) / N).toFixed(3), "ms wall");
  };
  for (let k = 0; k < 2; k++) {
    await time("prisma findUnique", () => prisma.apiKey.findUnique({ where: { keyHash: key.keyHash }, select: { id: true, teamId: true, permissions: true, rateLimitTier: true, revokedAt: true, expiresAt: true } }));
    await time("prisma queryRaw  ", () => prisma.$queryRaw`SELECT id, team_id, permissions, rate_limit_tier, revoked_at, expires_at FROM api_keys WHERE key_hash = ${key.keyHash}`);
    await time("pg pool.query    ", () => pool.query({ name: "key", text: "SELECT id, team_id, permissions, rate_limit_tier, revoked_at, expires_at FROM api_keys WHERE key_hash = $1", values: [key.keyHash] }));
  }
  process.exit(0);
})();
