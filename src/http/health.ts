// GET /health (liveness: the process answers) and GET /ready (readiness: the database, and Redis when configured,
// answer). Neither needs a key or counts against a limit; a load balancer polls them.
import { Router } from "express";
import type { RateLimiter } from "../auth/rate-limit";
import { database } from "../db";
import type { Statement } from "../db/open";
import { replicaStates } from "../db/replicas";

/** A check that has not answered by then counts as unreachable (a cut network may never answer at all). */
const CHECK_TIMEOUT_MS = 3_000;
const PING: Statement = { name: "prs_ready", text: "SELECT 1" };

type Check = "ok" | "unreachable" | "not configured";

function withinTimeout(check: Promise<Check>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Check>((resolve) => (timer = setTimeout(() => resolve("unreachable"), CHECK_TIMEOUT_MS)));
  return Promise.race([check.catch((): Check => "unreachable"), timeout]).finally(() => clearTimeout(timer));
}

export function healthRouter(rateLimiter: RateLimiter): Router {
  const router = Router();
  router.get("/health", (_req, res) => void res.json({ status: "ok" }));
  router.get("/ready", async (_req, res) => {
    const [db, redis] = await Promise.all([
      withinTimeout(database.query(PING, []).then((): Check => "ok")),
      withinTimeout(rateLimiter.check()),
    ]);
    const ready = db === "ok" && redis !== "unreachable";
    res.setHeader("Cache-Control", "no-store");
    // Read replicas (when configured) are listed but decide nothing: the primary answers every read they cannot.
    const replicas = replicaStates().map((r) => ({ name: r.name, status: r.status, lag_ms: r.lagMs }));
    const checks = { database: db, redis, ...(replicas.length ? { replicas } : {}) };
    res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "unavailable", checks });
  });
  return router;
}
