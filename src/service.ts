// One server process: migrations, first-start bootstrap, HTTP server, webhook deliveries, graceful shutdown.
// Started by src/server.ts, alone or as each worker of a cluster (src/cluster.ts).
import { stopTracing } from "./observability/tracing"; // first: traces (when on) patch http, express and pg as they load
import cluster from "node:cluster";
import type { AddressInfo } from "node:net";
import express from "express";
import { createRateLimiter } from "./auth/rate-limit";
import { flushUsage } from "./auth/usage";
import { buildApp } from "./app";
import { bootstrapFirstTeam } from "./bootstrap";
import { claimEmbeddedDatabase, embeddedDatabaseInUse } from "./cli/embedded-lock";
import { config } from "./config";
import { database } from "./db";
import { closeReplicas } from "./db/replicas";
import { createAppServer } from "./http/server";
import { logger } from "./logger";
import { serveMetrics } from "./observability/metrics";
import { startDeliveryWorker } from "./webhooks/worker";
import { closeResponseCache } from "./yoga/response-cache";
import { closeApqStore } from "./graphql-documents/apq-store";
import { closeLiveBus } from "./live/bus";
import { closeLiveStreams } from "./live/streams";
import { attachWebSockets } from "./yoga/websocket";

/** Stops a start that cannot go on: one line on standard error for the person who ran it (no stack), exit 1. */
function refuseToStart(what: string, why: string): never {
  logger.fatal(`${what}: ${why}`);
  process.stderr.write(`${what[0].toUpperCase()}${what.slice(1)}: ${why}\n`);
  process.exit(1);
}

export async function startService(): Promise<void> {
  const inUse = embeddedDatabaseInUse();
  if (inUse) refuseToStart("cannot start", inUse);
  const applied = await database.migrate();
  if (applied.length) logger.info({ migrations: applied }, "database migrated");
  const embeddedLock = claimEmbeddedDatabase();
  const rateLimiter = createRateLimiter({ redisUrl: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX });
  // Serve only once the shared rate-limit store is reachable, so every process counts in one budget from the start.
  await rateLimiter.ready();
  await serveMetrics(); // METRICS_PORT: /metrics on a port of its own (a port in use stops the start here)
  // Requests wait until start-up is done (the first team made and its key printed): a client that sees an answer
  // can rely on the key having been printed, and a port already taken stops the start before any key is made.
  let open = false;
  let started!: () => void;
  const ready = new Promise<void>((resolve) => (started = () => ((open = true), resolve())));
  const app = buildApp({ rateLimiter });
  const gated = express();
  gated.disable("x-powered-by");
  gated.use((_req, _res, next) => (open ? next() : void ready.then(() => next())));
  gated.use(app);
  const { server, stop: stopServer } = createAppServer(gated);
  const webSockets = attachWebSockets(server, app); // GraphQL over WebSocket at /graphql
  await new Promise<void>((resolve) => {
    const refuse = (err: NodeJS.ErrnoException) => {
      const why = err.code === "EADDRINUSE" ? `port ${config.PORT} is in use; set PORT to another port` : err.code === "EACCES" ? `port ${config.PORT} needs privileges; set PORT above 1023` : err.message;
      refuseToStart("cannot listen", why);
    };
    server.once("error", refuse);
    server.listen(config.PORT, config.HOST, () => {
      server.off("error", refuse);
      server.on("error", (err) => {
        logger.fatal({ err }, "server error");
        process.exit(1);
      });
      resolve();
    });
  });
  // The first team and its key only once the server is listening: a start that fails never uses up the one time
  // the key is shown.
  const first = await bootstrapFirstTeam();
  if (first) {
    logger.warn({ teamId: first.teamId }, "created the first team 'My Team' and an API key with every permission (printed on standard error)");
    // On standard error, outside the JSON log stream: the key is not stored and cannot be shown again, and log
    // shippers reading standard output never receive it.
    process.stderr.write(`\n  Your API key (shown only this once):\n  ${first.key}\n\n`);
  }
  // The bound port, not the configured one: PORT=0 picks a free port.
  const { port } = server.address() as AddressInfo;
  const base = `http://${config.HOST === "0.0.0.0" || config.HOST === "::" ? "localhost" : config.HOST}:${port}`;
  // The links once per start: by the only process, or by a cluster's first worker (the others say they listen).
  const worker = cluster.isWorker ? cluster.worker?.id : undefined;
  if (worker === undefined || worker === 1) {
    logger.info({ port, database: database.kind, redis: Boolean(config.REDIS_URL), rest: `${base}/v1`, docs: `${base}/docs`, graphql: `${base}/graphql`, dashboard: `${base}/dashboard` }, "listening");
    process.stderr.write(`Property Report Service: REST ${base}/v1 · reference ${base}/docs · GraphQL (GraphiQL) ${base}/graphql · team dashboard ${base}/dashboard\n`);
  } else logger.info({ port, worker }, "listening");
  started();
  // Webhook deliveries, in the background of every process (claimed through the database: see src/webhooks/worker.ts),
  // unless WEBHOOK_CONCURRENCY=0 makes this one an API-only process.
  const deliveries = config.WEBHOOK_CONCURRENCY > 0 ? startDeliveryWorker() : null;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    // No new request from now on; requests in progress finish (they may still count calls and use the database)
    // within SHUTDOWN_TIMEOUT_MS, then the counts are written. Live streams never finish by themselves: they are
    // ended now (a client resumes on another process with Last-Event-ID).
    const stopped = stopServer(config.SHUTDOWN_TIMEOUT_MS);
    await closeLiveStreams();
    await webSockets?.close(); // 1001: the client reconnects, to another process
    const { forced } = await stopped;
    if (forced) logger.warn({ timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, "requests still in progress were cut off");
    // Attempts in flight finish, or are handed back for another process, before the database closes.
    await deliveries?.stop(config.SHUTDOWN_TIMEOUT_MS);
    await flushUsage().catch((err) => logger.error({ err }, "could not write usage counts"));
    await rateLimiter.close();
    await closeResponseCache();
    await closeApqStore();
    await closeLiveBus();
    await closeReplicas();
    await database.close().catch((err) => logger.error({ err }, "could not close the database"));
    embeddedLock.release();
    await stopTracing(); // the spans still buffered
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
