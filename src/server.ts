// Starts the service: migrations, first-start bootstrap, HTTP server, graceful shutdown.
import type { AddressInfo } from "node:net";
import { createRateLimiter } from "./auth/rate-limit";
import { flushUsage } from "./auth/usage";
import { buildApp } from "./app";
import { bootstrapFirstTeam } from "./bootstrap";
import { claimEmbeddedDatabase, embeddedDatabaseInUse } from "./cli/embedded-lock";
import { config } from "./config";
import { database } from "./db";
import { createAppServer } from "./http/server";
import { logger } from "./logger";

async function main(): Promise<void> {
  const inUse = embeddedDatabaseInUse();
  if (inUse) throw new Error(inUse);
  const applied = await database.migrate();
  if (applied.length) logger.info({ migrations: applied }, "database migrated");
  const embeddedLock = claimEmbeddedDatabase();
  const first = await bootstrapFirstTeam();
  if (first) {
    // Printed once, on the first start only: the key is not stored and cannot be shown again.
    logger.warn({ teamId: first.teamId }, "created the first team 'My Team' and an API key with every permission");
    process.stdout.write(`\n  Your API key (shown only this once):\n  ${first.key}\n\n`);
  }
  const rateLimiter = createRateLimiter({ redisUrl: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX });
  // Serve only once the shared rate-limit store is reachable, so every process counts in one budget from the start.
  await rateLimiter.ready();
  const { server, stop: stopServer } = createAppServer(buildApp({ rateLimiter }));
  server.listen(config.PORT, config.HOST, () => {
    // The bound port, not the configured one: PORT=0 picks a free port.
    const { port } = server.address() as AddressInfo;
    logger.info({ port, database: database.kind, redis: Boolean(config.REDIS_URL) }, "listening");
  });
  server.on("error", (err) => {
    logger.fatal({ err }, "cannot listen");
    process.exit(1);
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    // No new request from now on; requests in progress finish (they may still count calls and use the database)
    // within SHUTDOWN_TIMEOUT_MS, then the counts are written.
    const { forced } = await stopServer(config.SHUTDOWN_TIMEOUT_MS);
    if (forced) logger.warn({ timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, "requests still in progress were cut off");
    await flushUsage().catch((err) => logger.error({ err }, "could not write usage counts"));
    await rateLimiter.close();
    await database.close().catch((err) => logger.error({ err }, "could not close the database"));
    embeddedLock.release();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((err) => {
  logger.fatal({ err }, "failed to start");
  process.exit(1);
});
