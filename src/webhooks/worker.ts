// Sends the events the outbox (./outbox.ts) recorded: runs in every server process, off the request path. It first
// makes an event's deliveries (one per subscribed endpoint), then sends them. Both steps take their rows with
// FOR UPDATE SKIP LOCKED (PostgreSQL and PGlite alike), so several processes on one database never make or send the
// same ones; a claim runs out after the attempt's time limit, so an attempt a crashed process held is sent by another
// (at least once). At most WEBHOOK_CONCURRENCY attempts are in flight per process, and at most PER_ENDPOINT to any one
// endpoint, so a slow or dead receiver cannot hold up the others. Requests come first: while the process keeps
// answering them, deliveries go out at a slow pace, and at full pace once it is quiet.
import DataLoader from "dataloader";
import { Webhook } from "standardwebhooks";
import { fetch } from "undici";
import { config } from "../config";
import { database, prisma } from "../db";
import { quietForMs } from "../http/activity";
import { logger } from "../logger";
import { checkHost, deliveryAgent } from "./address";
import { onEventsRecorded } from "./outbox";

const PER_ENDPOINT = 2;
const RETENTION_DAYS = 30;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const USER_AGENT = "PropertyReportService-Webhooks/1.0";
/** While requests keep coming, one claim (of up to WEBHOOK_CONCURRENCY deliveries) at most this often… */
const BUSY_CLAIM_EVERY_MS = 100;
/** …until no request has been answered for this long. */
const QUIET_MS = 20;
/** PGlite runs no autovacuum: the worker vacuums the delivery tables itself after this many outcomes, when quiet. */
const VACUUM_AFTER_OUTCOMES = 2000;
/** Events fanned out by one statement at most. */
const FAN_OUT_BATCH = 200;

interface Claimed {
  id: string;
  teamId: string;
  attempt: number;
  eventId: string;
  endpointId: string;
  type: string;
  data: unknown;
  createdAt: Date;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

interface Outcome {
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
}

export interface DeliveryWorker {
  /** Looks for due deliveries now (after a commit that recorded events). */
  wake(): void;
  /** Stops claiming; waits up to `timeoutMs` for attempts in flight, then releases the rest for another process. */
  stop(timeoutMs?: number): Promise<void>;
}

/** The request body and Standard Webhooks headers of a delivery (signed by the current and, after a rotation, the previous secret). */
export function signedRequest(d: Pick<Claimed, "eventId" | "type" | "data" | "createdAt" | "secret" | "previousSecret" | "previousSecretExpiresAt">, now = new Date()) {
  const body = JSON.stringify({ id: d.eventId, type: d.type, timestamp: d.createdAt.toISOString(), data: d.data });
  const secrets = [d.secret, ...(d.previousSecret && d.previousSecretExpiresAt && d.previousSecretExpiresAt > now ? [d.previousSecret] : [])];
  const signature = secrets.map((secret) => new Webhook(secret).sign(d.eventId, now, body)).join(" ");
  const headers = {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "webhook-id": d.eventId,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": signature,
  };
  return { body, headers };
}

const describe = (err: unknown): string => {
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) return `No answer within ${config.WEBHOOK_TIMEOUT_MS} ms`;
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  return cause instanceof Error ? cause.message.slice(0, 500) : String(cause).slice(0, 500);
};

export function startDeliveryWorker(): DeliveryWorker {
  const agent = deliveryAgent();
  const inFlight = new Map<string, { endpointId: string; done: Promise<void> }>();
  const recording = new Set<Promise<void>>(); // outcomes of finished attempts still being written
  let stopping = false;
  let looking = false;
  let again = false;

  async function attempt(d: Claimed): Promise<Outcome> {
    const started = Date.now();
    try {
      await checkHost(new URL(d.url).hostname);
      const { body, headers } = signedRequest(d);
      const res = await fetch(d.url, {
        method: "POST",
        body,
        headers,
        dispatcher: agent,
        redirect: "manual",
        signal: AbortSignal.timeout(config.WEBHOOK_TIMEOUT_MS),
      });
      await res.body?.cancel().catch(() => undefined); // the answer's body is not kept
      const ok = res.status >= 200 && res.status < 300;
      return { responseStatus: res.status, error: ok ? null : `HTTP ${res.status}`, durationMs: Date.now() - started };
    } catch (err) {
      return { responseStatus: null, error: describe(err), durationMs: Date.now() - started };
    }
  }

  /** Writes the attempt's outcome: succeeded; or the endpoint disabled (410); or the next attempt scheduled, or failed. */
  async function record(d: Claimed, o: Outcome): Promise<void> {
    outcomes++;
    const result = { responseStatus: o.responseStatus, durationMs: o.durationMs, error: o.error, nextAttemptAt: null, claimedUntil: null };
    if (o.error === null) return succeeded.load({ id: d.id, responseStatus: o.responseStatus!, durationMs: o.durationMs });
    const wait = config.WEBHOOK_RETRY_SCHEDULE[d.attempt - 1];
    logger.warn({ deliveryId: d.id, endpointId: d.endpointId, eventId: d.eventId, attempt: d.attempt, status: o.responseStatus, error: o.error, retryInSeconds: wait ?? null }, "webhook delivery failed");
    await prisma.$transaction(async (tx) => {
      if (o.responseStatus === 410) {
        await tx.webhookEndpoint.update({ where: { id: d.endpointId }, data: { enabled: false, disabledReason: `The endpoint answered 410 Gone on ${new Date().toISOString()}` } });
        await tx.webhookDelivery.update({ where: { id: d.id }, data: { ...result, status: "failed" } });
        return;
      }
      const retry = wait !== undefined;
      await tx.webhookDelivery.update({ where: { id: d.id }, data: { ...result, status: retry ? "retrying" : "failed" } });
      if (retry) {
        await tx.webhookDelivery.create({
          data: { teamId: d.teamId, eventId: d.eventId, endpointId: d.endpointId, attempt: d.attempt + 1, nextAttemptAt: new Date(Date.now() + wait * 1000) },
        });
      }
    });
  }

  // Successes (nearly every attempt) are written together: one statement for those finished within a few ms.
  const succeeded = new DataLoader<{ id: string; responseStatus: number; durationMs: number }, void>(
    async (batch) => {
      await prisma.$executeRaw`
        UPDATE webhook_deliveries d
        SET status = 'succeeded', response_status = v.status, duration_ms = v.ms, error = NULL, next_attempt_at = NULL, claimed_until = NULL
        FROM unnest(${batch.map((b) => b.id)}::uuid[], ${batch.map((b) => b.responseStatus)}::int[], ${batch.map((b) => b.durationMs)}::int[]) AS v(id, status, ms)
        WHERE d.id = v.id`;
      return batch.map(() => undefined);
    },
    { cache: false, batchScheduleFn: (send) => setTimeout(send, 5) },
  );

  /**
   * Creates the deliveries of recorded events (the `limit` oldest): one per endpoint of the event's team
   * that is enabled, subscribed to its type and was created before it. One statement, so an event is fanned out by
   * exactly one process, and entirely or not at all.
   */
  async function fanOut(limit: number): Promise<{ events: number; deliveries: number }> {
    const [counts] = await prisma.$queryRaw<{ events: number; deliveries: number }[]>`
      WITH due AS (
        SELECT id FROM webhook_events WHERE fan_out_pending ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      ), taken AS (
        UPDATE webhook_events ev SET fan_out_pending = false FROM due WHERE ev.id = due.id
        RETURNING ev.id, ev.team_id, ev.type, ev.created_at
      ), created AS (
        INSERT INTO webhook_deliveries (id, team_id, event_id, endpoint_id, next_attempt_at)
        SELECT gen_random_uuid(), t.team_id, t.id, e.id, now()
        FROM taken t JOIN webhook_endpoints e ON e.team_id = t.team_id
        WHERE e.enabled AND (t.type = ANY (e.events) OR '*' = ANY (e.events)) AND e.created_at <= t.created_at
        ORDER BY t.created_at, t.id, e.id -- written event by event, so a claim's due rows spread over the endpoints
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM taken)::int AS events, (SELECT count(*) FROM created)::int AS deliveries`;
    return counts;
  }

  async function claim(limit: number): Promise<Claimed[]> {
    const counts = new Map<string, number>();
    for (const { endpointId } of inFlight.values()) counts.set(endpointId, (counts.get(endpointId) ?? 0) + 1);
    const busy = [...counts].filter(([, n]) => n >= PER_ENDPOINT).map(([id]) => id);
    // A claim lasts the attempt's timeout and 5 s to write its outcome: the attempt of a process that died is taken
    // up by any process after that (a receiver may then get it twice, with the same webhook-id).
    const holdSeconds = Math.ceil(config.WEBHOOK_TIMEOUT_MS / 1000) + 5;
    const rows = await prisma.$queryRaw<Claimed[]>`
      WITH due AS (
        SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND (d.claimed_until IS NULL OR d.claimed_until < now())
          AND e.enabled AND NOT (d.endpoint_id = ANY (${busy}::uuid[]))
        ORDER BY d.next_attempt_at
        LIMIT ${limit}
        FOR UPDATE OF d SKIP LOCKED
      ), claimed AS (
        UPDATE webhook_deliveries d SET claimed_until = now() + make_interval(secs => ${holdSeconds})
        FROM due WHERE d.id = due.id
        RETURNING d.id, d.team_id, d.attempt, d.event_id, d.endpoint_id
      )
      SELECT c.id, c.team_id AS "teamId", c.attempt, c.event_id AS "eventId", c.endpoint_id AS "endpointId", ev.type, ev.data, ev.created_at AS "createdAt",
             e.url, e.secret, e.previous_secret AS "previousSecret", e.previous_secret_expires_at AS "previousSecretExpiresAt"
      FROM claimed c JOIN webhook_events ev ON ev.id = c.event_id JOIN webhook_endpoints e ON e.id = c.endpoint_id`;
    // More than PER_ENDPOINT for one endpoint in this batch: hand the extra ones back at once.
    const kept: Claimed[] = [];
    const extra: string[] = [];
    for (const row of rows) {
      const n = counts.get(row.endpointId) ?? 0;
      if (n >= PER_ENDPOINT) extra.push(row.id);
      else kept.push(row), counts.set(row.endpointId, n + 1);
    }
    if (extra.length) await release(extra);
    return kept;
  }

  const release = (ids: string[]) => prisma.webhookDelivery.updateMany({ where: { id: { in: ids }, status: "pending" }, data: { claimedUntil: null } });

  // A claim is one statement whatever its size: it is made when at least half the slots are free,
  // not after every finished attempt, so a busy worker claims several deliveries a statement.
  const refillAt = Math.max(1, Math.ceil(config.WEBHOOK_CONCURRENCY / 2));

  // Requests come first: while this process keeps answering them, deliveries are claimed once per BUSY_CLAIM_EVERY_MS
  // (so they still go out, up to WEBHOOK_CONCURRENCY × 10 a second), at full pace once it has been quiet for QUIET_MS.
  let lastClaim = 0;
  let outcomes = 0; // since the last vacuum (PGlite)
  let fanOutDue = true; // events may wait for their deliveries: at start, after a commit that recorded some, on each poll
  let later: NodeJS.Timeout | null = null; // the claim put off while busy
  const nextClaimIn = (): number => (quietForMs() >= QUIET_MS ? 0 : lastClaim + BUSY_CLAIM_EVERY_MS - Date.now());

  /** Sends the claimed deliveries. An attempt's slot is free once the receiver answered; its outcome is written after. */
  function send(deliveries: Claimed[]): void {
    for (const d of deliveries) {
      const done = attempt(d).then((outcome) => {
        inFlight.delete(d.id);
        if (!stopping) wake();
        const written: Promise<void> = record(d, outcome)
          .catch((err) => logger.error({ err, deliveryId: d.id }, "could not record a webhook delivery"))
          .finally(() => recording.delete(written));
        recording.add(written);
      });
      inFlight.set(d.id, { endpointId: d.endpointId, done });
    }
  }

  async function look(): Promise<void> {
    if (looking) return void (again = true);
    looking = true;
    try {
      do {
        again = false;
        const free = config.WEBHOOK_CONCURRENCY - inFlight.size;
        if (stopping || free < refillAt) break;
        const wait = nextClaimIn();
        if (wait > 0) {
          later ??= setTimeout(() => ((later = null), wake()), Math.min(wait, QUIET_MS));
          break;
        }
        if (later) clearTimeout(later), (later = null);
        lastClaim = Date.now();
        send(await claim(free));
        // Events become deliveries when those already due do not fill the free slots: while requests keep coming, as
        // many events as there are free slots (so the backlog waits as events, cheaply), otherwise up to FAN_OUT_BATCH.
        const short = config.WEBHOOK_CONCURRENCY - inFlight.size;
        if (short > 0 && fanOutDue) {
          const batch = quietForMs() < QUIET_MS ? short : FAN_OUT_BATCH;
          fanOutDue = false; // a commit while the statement runs sets it again
          const { events, deliveries } = await fanOut(batch).catch((err) => ((fanOutDue = true), Promise.reject(err)));
          if (events === batch) fanOutDue = true; // the batch was full: more are waiting
          if (deliveries) send(await claim(short));
        }
        // Every update of a delivery leaves a dead row; without vacuum the claim's index scan wades through them all.
        if (outcomes >= VACUUM_AFTER_OUTCOMES && database.kind === "pglite" && quietForMs() >= QUIET_MS) {
          outcomes = 0;
          await prisma.$executeRawUnsafe("VACUUM ANALYZE webhook_deliveries, webhook_events");
        }
      } while (again);
    } catch (err) {
      logger.warn({ err }, "could not look for due webhook deliveries");
    } finally {
      looking = false;
    }
  }

  const wake = () => void look();
  const eventsWaiting = () => ((fanOutDue = true), wake());

  async function prune(): Promise<void> {
    const cutoff = new Date(Date.now() - RETENTION_DAYS * 86_400_000);
    // Deliveries go with their event (foreign key ON DELETE CASCADE).
    await prisma.webhookEvent.deleteMany({ where: { createdAt: { lt: cutoff } } }).catch((err) => logger.warn({ err }, "could not prune webhook events"));
  }

  const poll = setInterval(eventsWaiting, config.WEBHOOK_POLL_MS).unref();
  const pruning = setInterval(() => void prune(), PRUNE_EVERY_MS).unref();
  const unsubscribe = onEventsRecorded(eventsWaiting);
  void prune();
  wake();

  return {
    wake,
    async stop(timeoutMs = 10_000) {
      stopping = true;
      clearInterval(poll);
      clearInterval(pruning);
      if (later) clearTimeout(later);
      unsubscribe();
      const all = Promise.all([...inFlight.values()].map((f) => f.done)).then(() => Promise.all(recording));
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
      if (inFlight.size) await release([...inFlight.keys()]).catch(() => undefined);
      await agent.close().catch(() => undefined);
    },
  };
}
