// CPU and memory per request of the auth middleware alone: a key this process knows, on a REST report read, as
// scenario 4 sends it (PostgreSQL + Redis; the request's statement checks the key, so the middleware reads nothing).
// DATABASE_URL=… REDIS_URL=… NODE_ENV=production RATE_LIMIT_ENTERPRISE=1000000000 \
//   node --expose-gc --import tsx bench/micro/auth-middleware.ts
import type { Request, Response } from "express";
import { generateApiKey, hashApiKey, keyDisplayPrefix } from "../../src/auth/keys";
import { authenticate } from "../../src/auth/middleware";
import { createRateLimiter } from "../../src/auth/rate-limit";
import { database, prisma } from "../../src/db";
import { readsReports } from "../../src/rest/table";

(async () => {
  await database.migrate();
  const team = await prisma.team.create({ data: { name: "T", adminName: "A" } });
  const token = generateApiKey();
  const permissions = { reports: ["read"] };
  await prisma.apiKey.create({ data: { teamId: team.id, name: "k", keyHash: hashApiKey(token), prefix: keyDisplayPrefix(token), permissions, rateLimitTier: "enterprise" } });
  const limiter = createRateLimiter({ redisUrl: process.env.REDIS_URL });
  const middleware = authenticate(limiter, { checkedByStatement: readsReports });
  const res = {
    locals: {},
    setHeader: () => res,
    removeHeader: () => undefined,
    status: (status: number) => ({ json: (body: unknown) => Promise.reject(new Error(`refused: ${status} ${JSON.stringify(body)}`)) }),
  } as unknown as Response;
  const request = () => ({ method: "GET", path: "/v1/reports/x", headers: { authorization: `Bearer ${token}` }, ip: "127.0.0.1" }) as unknown as Request;
  const one = () => new Promise<void>((resolve, reject) => middleware(request(), res, (err?: unknown) => (err ? reject(err) : resolve())));
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let round = 0; round < 4; round++) {
    const N = 20_000;
    const cpu = process.cpuUsage();
    for (let i = 0; i < N; i++) await one();
    const { user, system } = process.cpuUsage(cpu);
    // Bytes allocated per request: heap growth over 1,000 requests, from a collected heap (no scavenge in between).
    gc?.();
    const heap = process.memoryUsage().heapUsed;
    for (let i = 0; i < 1000; i++) await one();
    const bytes = gc ? `, ${((process.memoryUsage().heapUsed - heap) / 1000).toFixed(0)} bytes allocated` : "";
    console.log(`${((user + system) / N).toFixed(2)} µs CPU per request${bytes}`);
  }
  await limiter.close();
  process.exit(0);
})();
