// Starts the service: migrations, first-start bootstrap, HTTP server, graceful shutdown.
import { createRateLimiter } from "./auth/rate-limit";
import { flushUsage } from "./auth/usage";
import { buildApp } from "./app";
import { bootstrapFirstTeam } from "./bootstrap";
import { config } from "./config";
import { database } from "./db";
import { logger } from "./logger";

async function main(): Promise<void> {
  const applied = await database.migrate();
  if (applied.length) logger.info({ migrations: applied }, "database migrated");
  const first = await bootstrapFirstTeam();
  if (first) {
    // Printed once, on the first start only: the key is not stored and cannot be shown again.
    logger.warn({ teamId: first.teamId }, "created the first team 'My Team' and an API key with every permission");
    process.stdout.write(`\n  Your API key (shown only this once):\n  ${first.key}\n\n`);
  }
  const rateLimiter = createRateLimiter({ redisUrl: config.REDIS_URL });
  const server = buildApp({ rateLimiter }).listen(config.PORT, config.HOST, () => {
    logger.info({ port: config.PORT, database: database.kind, redis: Boolean(config.REDIS_URL) }, "listening");
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    server.close();
    server.closeIdleConnections();
    await flushUsage().catch((err) => logger.error({ err }, "could not write usage counts"));
    await rateLimiter.close();
    await database.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((err) => {
  logger.fatal({ err }, "failed to start");
  process.exit(1);
});
