// The benchmarked server process (started by bench/run.ts, never by the service). Same start-up as src/server.ts
// minus the first-start bootstrap, and three listeners in this one process on ephemeral loopback ports:
//   stack    – buildApp() exactly as `npm start` builds it
//   baseline – the hand-written route of scenario 1 behind the same auth middleware (bench/baseline.ts)
//   noauth   – buildApp() with auth + rate limiting switched off (scenario 4), as the team of BENCH_TEAM_ID
// One process, because PGlite can only be opened by one process, and so all sides share one warm Prisma client.
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRateLimiter } from "../src/auth/rate-limit";
import { flushUsage } from "../src/auth/usage";
import { assembleApp, buildApp } from "../src/app";
import { config } from "../src/config";
import type { Permissions } from "../src/auth/permissions";
import type { Context } from "../src/context";
import { database, prisma } from "../src/db";
import { buildBaselineApp } from "./baseline";
import { withStatementCount } from "./statement-count";
import { startDeliveryWorker } from "../src/webhooks/worker";

export interface ServerPorts {
  stack: number;
  baseline: number;
  noauth: number;
}

// With SQL_STATEMENT_EVENTS=true (scenario 2), every response carries its statement count.
const listen = (app: RequestListener) =>
  new Promise<Server>((resolve) => {
    const server = createServer(config.SQL_STATEMENT_EVENTS ? withStatementCount(app) : app).listen(0, "127.0.0.1", () => resolve(server));
  });

async function main(): Promise<void> {
  await database.migrate();
  const teamId = process.env.BENCH_TEAM_ID;
  const key = teamId ? await prisma.apiKey.findFirst({ where: { teamId } }) : null;
  if (!key) throw new Error("BENCH_TEAM_ID must name a seeded team with a key");

  const rateLimiter = createRateLimiter({ redisUrl: config.REDIS_URL });
  // Every request of the no-auth app runs as the seeded key, without looking it up or counting it.
  const context: Context = {
    viewer: { keyId: key.id, keyPrefix: key.prefix, teamId: key.teamId, permissions: key.permissions as Permissions, tier: key.rateLimitTier },
    rateLimit: null,
  };
  const servers = {
    stack: await listen(buildApp({ rateLimiter })),
    baseline: await listen(buildBaselineApp(rateLimiter)),
    noauth: await listen(
      assembleApp((_req, res, next) => {
        res.locals.context = { ...context };
        next();
      }, rateLimiter),
    ),
  };
  const ports = Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, (s.address() as AddressInfo).port])) as unknown as ServerPorts;
  // Webhook deliveries run in the background as in `npm start` (scenario 7 subscribes endpoints).
  const worker = startDeliveryWorker();
  process.send?.({ ready: true, ports });

  const stop = async () => {
    for (const s of Object.values(servers)) {
      s.close();
      s.closeAllConnections();
    }
    await worker.stop();
    await flushUsage().catch(() => undefined);
    await rateLimiter.close();
    await database.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("disconnect", () => void stop());
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
