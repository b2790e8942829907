// The service's own series, in the registry of ./metrics.ts: requests by route template and status, the database
// pool, rate-limit refusals, the webhook backlog and delivery attempts. Label values are bounded by the code, never by
// clients: a route is its pattern (/v1/reports/:id), one of the fixed mounts (/graphql, /dashboard…) or "unmatched".
import type { Request, RequestHandler } from "express";
import { Counter, Gauge, Histogram } from "prom-client";
import { database } from "../db";
import { hasReplicas, readsServed, replicaStates } from "../db/replicas";
import { registry } from "./metrics";

const requestDuration = new Histogram({
  name: "prs_http_request_duration_seconds",
  help: "HTTP requests by method, route template and status: time to the last byte of the answer (_count: requests)",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});

/** Methods Node's parser accepts beyond these are counted as OTHER. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** Mounts whose paths below are files or a single endpoint (static assets, GraphQL): labelled by the mount. */
const MOUNTS = ["/graphql", "/dashboard", "/docs"];

/** The route's pattern as Express matched it, the fixed mount that answered, or "unmatched": never a raw path. */
export function routeOf(req: Request): string {
  const pattern = req.route?.path as unknown;
  const path = Array.isArray(pattern) ? pattern[0] : pattern;
  if (typeof path === "string") return req.baseUrl + path;
  if (MOUNTS.some((m) => req.baseUrl === m || req.baseUrl.startsWith(`${m}/`))) return req.baseUrl;
  return "unmatched";
}

/** Times every request until its answer is sent ("aborted": the client left before it was). */
export const requestMetrics = (): RequestHandler => (req, res, next) => {
  const end = requestDuration.startTimer();
  res.once("close", () => {
    const method = METHODS.has(req.method) ? req.method : "OTHER";
    end({ method, route: routeOf(req), status: res.writableFinished ? String(res.statusCode) : "aborted" });
    if (res.statusCode === 429) refusals.inc({ reason: limitedByAddress.has(res) ? "ip" : "key" });
  });
  next();
};

const refusals = new Counter({
  name: "prs_rate_limit_refusals_total",
  help: "Requests answered 429: by a key's hourly budget (key) or the budget of callers without a valid key, per address (ip)",
  labelNames: ["reason"] as const,
  registers: [registry],
});

/** Responses the auth step refused by the per-address budget of callers without a valid key (any other 429: a key's). */
export const limitedByAddress = new WeakSet<object>();

// The pool of PostgreSQL connections (none on PGlite: the embedded database has no pool).
new Gauge({
  name: "prs_db_pool_connections",
  help: "PostgreSQL connections of this process's pool, in use (lent to a statement or transaction) and idle",
  labelNames: ["state"] as const,
  registers: [registry],
  aggregator: "sum",
  collect() {
    const pool = database.pool?.();
    if (!pool) return;
    this.set({ state: "in_use" }, pool.total - pool.idle);
    this.set({ state: "idle" }, pool.idle);
  },
});
new Gauge({
  name: "prs_db_pool_waiting",
  help: "Requests of this process waiting for a PostgreSQL connection of its pool",
  registers: [registry],
  aggregator: "sum",
  collect() {
    const pool = database.pool?.();
    if (pool) this.set(pool.waiting);
  },
});

// Read replicas (none unless DATABASE_REPLICA_URLS is set): each one's replication lag, and where reads were served.
new Gauge({
  name: "prs_db_replica_lag_seconds",
  help: "Replication lag of each read replica as this process last polled it (absent while the replica is down)",
  labelNames: ["replica"] as const,
  registers: [registry],
  aggregator: "max",
  collect() {
    this.reset();
    for (const r of replicaStates()) if (r.status !== "down" && r.lagMs !== null) this.set({ replica: r.name }, r.lagMs / 1000);
  },
});
new Counter({
  name: "prs_db_reads_total",
  help: "Queries a read replica could answer, by where they were served: a replica, or the primary (none was ok or had replayed the team's last write, or it failed)",
  labelNames: ["target"] as const,
  registers: [registry],
  aggregator: "sum",
  collect() {
    if (!hasReplicas()) return;
    this.reset();
    this.inc({ target: "primary" }, readsServed.primary);
    this.inc({ target: "replica" }, readsServed.replica);
  },
});

/** Rows the backlog query reads at most per table: past it the gauges stay at this number. */
const BACKLOG_CAP = 100_000;
/** A scrape sooner than this after the last reuses its backlog (several Prometheus servers, a reload loop). */
const BACKLOG_EVERY_MS = 5_000;
const BACKLOG = {
  text: `SELECT (SELECT count(*) FROM (SELECT 1 FROM webhook_events WHERE fan_out_pending LIMIT ${BACKLOG_CAP}) e)::int AS events,
    count(*)::int AS pending, (count(*) FILTER (WHERE next_attempt_at <= now()))::int AS due
    FROM (SELECT next_attempt_at FROM webhook_deliveries WHERE status = 'pending' LIMIT ${BACKLOG_CAP}) d`,
};
interface Backlog {
  events: number;
  pending: number;
  due: number;
}
let backlog: { at: number; value: Promise<Backlog | null> } | null = null;

/** The database-wide backlog: one statement over the partial indexes of what is waiting, read at most every 5 s. */
function readBacklog(): Promise<Backlog | null> {
  if (backlog && Date.now() - backlog.at < BACKLOG_EVERY_MS) return backlog.value;
  const value = database.query<Backlog>(BACKLOG, []).then(
    ([row]) => row ?? null,
    () => null, // the database is unreachable: the gauges are left out of this scrape (readiness says why)
  );
  backlog = { at: Date.now(), value };
  return value;
}

const backlogGauge = (name: string, help: string, field: keyof Backlog) =>
  new Gauge({
    name,
    help: `${help} (at most ${BACKLOG_CAP})`,
    registers: [registry],
    aggregator: "max", // every process reads the same database
    async collect() {
      const read = await readBacklog();
      if (read) this.set(read[field]);
    },
  });
backlogGauge("prs_webhook_events_unsent", "Webhook events whose deliveries are still to be made", "events");
backlogGauge("prs_webhook_deliveries_pending", "Webhook delivery attempts waiting, due now or scheduled for a retry", "pending");
backlogGauge("prs_webhook_deliveries_due", "Webhook delivery attempts due now and not yet sent", "due");

const deliveryDuration = new Histogram({
  name: "prs_webhook_delivery_duration_seconds",
  help: "Webhook delivery attempts by outcome (success, http_error, timeout, error): time to the receiver's answer (_count: attempts)",
  labelNames: ["outcome"] as const,
  buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
  registers: [registry],
});

/** What a delivery attempt came to (the worker's own record of it). */
export interface DeliveryOutcome {
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
}

export function deliveryOutcome(o: DeliveryOutcome): "success" | "http_error" | "timeout" | "error" {
  if (o.error === null) return "success";
  if (o.responseStatus !== null) return "http_error";
  return o.error.startsWith("No answer within") ? "timeout" : "error";
}

export const countDelivery = (o: DeliveryOutcome): void => deliveryDuration.observe({ outcome: deliveryOutcome(o) }, o.durationMs / 1000);
