// Several server processes on one machine (`WEB_CONCURRENCY` > 1): this primary forks that many workers, each the
// whole service (src/server.ts's start: migrations under their lock, the first team under its lock, the HTTP
// server, webhook deliveries claimed through the database). They share the listening port (node:cluster hands
// connections round-robin) and, through PostgreSQL and Redis, every budget, key and revocation, exactly as
// separate processes on several machines do. The primary holds no database or Redis connection and serves nothing:
// it restarts a worker that dies, relays a stop, and serves the workers' metrics on METRICS_PORT.
import cluster, { type Worker } from "node:cluster";
import { config } from "./config";
import { logger } from "./logger";
import { startMetricsListener, workersMetrics } from "./observability/metrics";

/** A worker that dies sooner than this after its start is crashing; its restarts are spaced out (1 s, 2 s, … 30 s). */
const HEALTHY_AFTER_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;

export function runPrimary(count: number): void {
  let stopping = false;
  let anyListening = false;
  let quickDeaths = 0;
  const startedAt = new Map<Worker, number>();

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
    worker.once("listening", () => (anyListening = true));
    logger.info({ pid: worker.process.pid }, "worker started");
  };

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) return void (startedAt.size === 0 && finish());
    // A start that cannot succeed (port in use, bad configuration, database missing) ends every worker the same
    // way before any listens: stop with its exit code instead of restarting forever.
    if (!anyListening) {
      logger.fatal({ pid: worker.process.pid, code, signal }, "a worker failed to start; stopping");
      stopAll("failed start", code || 1);
      return;
    }
    quickDeaths = lived < HEALTHY_AFTER_MS ? quickDeaths + 1 : 0;
    const delay = quickDeaths ? Math.min(MAX_RESTART_DELAY_MS, 1000 * 2 ** (quickDeaths - 1)) : 0;
    logger.error({ pid: worker.process.pid, code, signal, restartInMs: delay }, "worker died; starting another");
    setTimeout(() => !stopping && fork(), delay).unref();
  });

  let exitCode = 0;
  const finish = () => {
    logger.info("stopped");
    process.exit(exitCode);
  };
  // Each worker stops gracefully on its own (src/server.ts: requests in flight finish within SHUTDOWN_TIMEOUT_MS);
  // one still alive well after that is killed.
  const stopAll = (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    logger.info({ reason }, "shutting down workers");
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    if (startedAt.size === 0) finish();
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
    }, config.SHUTDOWN_TIMEOUT_MS + 5000).unref();
  };
  process.on("SIGTERM", () => stopAll("SIGTERM"));
  process.on("SIGINT", () => stopAll("SIGINT"));

  logger.info({ workers: count }, "starting workers");
  for (let i = 0; i < count; i++) fork();
  // METRICS_PORT: the primary serves every worker's series, summed (prom-client's cluster aggregation); a worker
  // serves none of its own.
  startMetricsListener(workersMetrics()).then(
    (listener) => listener && logger.info({ port: listener.port, host: config.METRICS_HOST, metrics: `http://${config.METRICS_HOST}:${listener.port}/metrics` }, "metrics listening"),
    (err: Error) => {
      logger.fatal({ err }, `cannot serve metrics: ${err.message}`);
      stopAll("metrics port", 1);
    },
  );
}

/** Whether this process is the primary of a cluster (and so runs no server of its own). */
export function isClusterPrimary(): boolean {
  return config.WEB_CONCURRENCY > 1 && cluster.isPrimary;
}
