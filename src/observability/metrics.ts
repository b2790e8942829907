// Prometheus metrics (prom-client): where /metrics is served and who may read it. Off unless METRICS_PORT or
// METRICS_TOKEN says where; then nothing runs per request (the series are in ./series.ts, GraphQL's phases come
// from Yoga's Prometheus plugin in app.ts, and Node's own — event-loop lag, memory, CPU, handles — from prom-client).
// This module loads neither the database nor the service, so that a cluster primary can serve with it.
//
// Several processes: each keeps its own registry; a cluster primary answers with their sum through prom-client's
// AggregatorRegistry (`metricsEndpoint(() => aggregator.clusterMetrics())`): this module registers the registry
// for it in a worker. Each metric says how it aggregates (pool and request counts add up; the backlog is the
// database's, the same for every process).
import cluster from "node:cluster";
import { createHash, timingSafeEqual } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { RequestHandler } from "express";
import { AggregatorRegistry, collectDefaultMetrics, Registry } from "prom-client";
import { config } from "../config";
import { logger } from "../logger";

/** Whether this process collects metrics (it serves them, or a cluster primary serves them for it). */
export const metricsEnabled = config.METRICS_PORT !== undefined || config.METRICS_TOKEN !== undefined;

export const registry = new Registry();
if (metricsEnabled) {
  collectDefaultMetrics({ register: registry }); // process_* and nodejs_* (nodejs_eventloop_lag_seconds, heap, GC)
  if (cluster.isWorker) {
    AggregatorRegistry.setRegistries([registry]);
    // Constructing one installs the worker's answer to its primary's requests (setRegistries alone does not, and
    // the primary's /metrics then waits for answers that never come).
    new AggregatorRegistry();
  }
}

/** The text a /metrics answer carries: this process's metrics, or (a cluster primary) its workers' together. */
export type MetricsText = () => Promise<string>;

export const processMetrics: MetricsText = () => registry.metrics();

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Whether the request bears `token` as its bearer token (compared in constant time). */
function bears(req: IncomingMessage, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  return match !== null && timingSafeEqual(digest(match[1]), digest(token));
}

function sendJson(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify({ error: { message, status } }));
}

/**
 * GET /metrics: `text`'s metrics, to requests bearing `token` when one is given. Any other path is passed to `next`
 * (the main port's app), or answered 404 when there is none (a port of its own).
 */
export function metricsEndpoint(text: MetricsText = processMetrics, token: string | undefined = config.METRICS_TOKEN) {
  return (req: IncomingMessage, res: ServerResponse, next?: () => void): void => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics") return next ? next() : sendJson(res, 404, `Not found: ${req.method} ${path}`);
    if (req.method !== "GET" && req.method !== "HEAD") return sendJson(res, 405, "Method not allowed; this path accepts GET, HEAD", { Allow: "GET, HEAD" });
    if (token !== undefined && !bears(req, token)) {
      return sendJson(res, 401, "Metrics need the METRICS_TOKEN as a bearer token", { "WWW-Authenticate": 'Bearer realm="metrics"' });
    }
    text().then(
      (body) => {
        res.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      (err: Error) => sendJson(res, 500, `Could not collect metrics: ${err.message}`),
    );
  };
}

/**
 * /metrics on the main port, for METRICS_TOKEN bearers; null when metrics are not served there (no token, or a port
 * of their own), and /metrics then answers like any unknown path.
 */
export function metricsOnMainPort(): RequestHandler | null {
  if (config.METRICS_TOKEN === undefined || config.METRICS_PORT !== undefined) return null;
  return metricsEndpoint() as RequestHandler;
}

/**
 * Serves /metrics on METRICS_HOST:METRICS_PORT (when set) and resolves with the bound port, or null when metrics
 * have no port of their own. `text`: a cluster primary passes its workers' aggregate. The server is unref'd: it
 * never holds the process open.
 */
export async function startMetricsListener(text: MetricsText = processMetrics): Promise<{ port: number; close(): Promise<void> } | null> {
  if (config.METRICS_PORT === undefined) return null;
  const server = http.createServer(metricsEndpoint(text));
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === "EADDRINUSE" ? `metrics port ${config.METRICS_PORT} is in use; set METRICS_PORT to another port` : err.message)),
    );
    server.listen(config.METRICS_PORT, config.METRICS_HOST, resolve);
  });
  server.unref();
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * For a cluster primary: the metrics of all its workers together (each worker registers its registry with
 * prom-client's cluster support when metrics are on), to pass to startMetricsListener.
 */
export function workersMetrics(): MetricsText {
  const aggregator = new AggregatorRegistry();
  return () => aggregator.clusterMetrics();
}

/**
 * The server process's part: /metrics on its own port (METRICS_PORT), logged with where it is. Nothing in a cluster
 * worker (its primary serves all the workers' metrics) or when metrics have no port of their own. A port in use
 * fails the start.
 */
export async function serveMetrics(): Promise<void> {
  if (cluster.isWorker) return;
  const listener = await startMetricsListener();
  if (listener) logger.info({ port: listener.port, host: config.METRICS_HOST, metrics: `http://${config.METRICS_HOST}:${listener.port}/metrics` }, "metrics listening");
}
