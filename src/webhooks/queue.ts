// The delivery queue in the database, shared by every server process: events become deliveries (fan-out), due
// deliveries are claimed for sending, and outcomes are written. Fan-out and claims take their rows with
// FOR UPDATE SKIP LOCKED (PostgreSQL and PGlite alike), so several processes never make or send the same ones.
//
// Teams share the queue fairly: both steps go team by team (the teams with rows waiting are found by a skip scan of
// a partial index that leads with team_id), and a claim gives the free slots in turns — each team's oldest due
// attempt first, a team with fewer attempts in flight in this process before one with more — so a team whose
// receivers hang, or whose backlog is long, waits for its own turns and not another team's.
import DataLoader from "dataloader";
import { config } from "../config";
import { prisma } from "../db";
import { Prisma } from "../generated/prisma/client";
import { logger } from "../logger";

/** Attempts one process sends to one endpoint at once. */
export const PER_ENDPOINT = 2;
const RETENTION_DAYS = 30;

export interface Claimed {
  id: string;
  teamId: string;
  attempt: number;
  eventId: string;
  endpointId: string;
  type: string;
  data: unknown;
  createdAt: Date;
  url: string;
  /** `webhook`, or a CRM destination's kind (./crm.ts). */
  kind: string;
  /** A CRM destination's API key, encrypted. */
  crmApiKey: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

export interface Outcome {
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  /** Nothing was sent, by rule (a CRM lead that may not be pushed): failed, with no retry. */
  refused?: boolean;
  /** The headers sent, credentials redacted; absent when nothing was sent. */
  requestHeaders?: Record<string, string> | null;
  /** The first KiB of the answer's body; absent when there was no answer. */
  responseBody?: string | null;
}

/** What this process is sending now: attempts per team and per endpoint. */
export interface Held {
  teams: Map<string, number>;
  endpoints: Map<string, number>;
}

const ids = (counts: Map<string, number>) => [...counts.keys()];
const numbers = (counts: Map<string, number>) => [...counts.values()];

/**
 * `teams`: the teams with a row of `table` (aliased w) where `waiting` holds, one index probe each (a skip scan of the
 * partial index on (team_id, …) WHERE `waiting`), ending with a NULL row. Used under WITH RECURSIVE.
 */
const teamsWaiting = (table: Prisma.Sql, waiting: Prisma.Sql) => Prisma.sql`teams AS (
    (SELECT w.team_id FROM ${table} w WHERE ${waiting} ORDER BY w.team_id LIMIT 1)
    UNION ALL
    SELECT (SELECT w.team_id FROM ${table} w WHERE ${waiting} AND w.team_id > teams.team_id ORDER BY w.team_id LIMIT 1)
    FROM teams WHERE teams.team_id IS NOT NULL
  )`;

/**
 * Creates the deliveries of recorded events, at most `limit` events: one per endpoint of the event's team that is
 * enabled, subscribed to its type and was created before it. Team by team, each team's oldest events first and the
 * teams in turns; a team that already has a round of due deliveries (WEBHOOK_CONCURRENCY) keeps its further events
 * waiting as events (one row each) until they are sent. One statement, so an event is fanned out by exactly one
 * process, and entirely or not at all. `more`: events may be left (the batch was full, or a team was passed over).
 */
export async function fanOut(limit: number): Promise<{ events: number; deliveries: number; more: boolean }> {
  const round = Math.max(1, config.WEBHOOK_CONCURRENCY);
  const [counts] = await prisma.$queryRaw<{ events: number; deliveries: number; passed: number }[]>`
    WITH RECURSIVE ${teamsWaiting(Prisma.sql`webhook_events`, Prisma.sql`w.fan_out_pending`)},
    open AS (
      SELECT t.team_id FROM teams t
      WHERE t.team_id IS NOT NULL AND (SELECT count(*) FROM (SELECT FROM webhook_deliveries q
        WHERE q.team_id = t.team_id AND q.status = 'pending' AND q.next_attempt_at <= now() ORDER BY q.next_attempt_at LIMIT ${round}) queued) < ${round}
    ), due AS (
      SELECT id FROM (
        SELECT p.id, p.created_at, row_number() OVER (PARTITION BY p.team_id ORDER BY p.created_at, p.id) AS turn
        FROM open t CROSS JOIN LATERAL (
          SELECT ev.id, ev.team_id, ev.created_at FROM webhook_events ev
          WHERE ev.team_id = t.team_id AND ev.fan_out_pending
          ORDER BY ev.created_at LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        ) p
      ) ranked
      ORDER BY turn, created_at LIMIT ${limit}
    ), taken AS (
      UPDATE webhook_events ev SET fan_out_pending = false FROM due WHERE ev.id = due.id
      RETURNING ev.id, ev.team_id, ev.type, ev.data, ev.created_at
    ), created AS (
      -- Due since the event happened: a team's deliveries are claimed in the order of its events.
      INSERT INTO webhook_deliveries (id, team_id, event_id, endpoint_id, next_attempt_at)
      SELECT gen_random_uuid(), t.team_id, t.id, e.id, t.created_at
      FROM taken t JOIN webhook_endpoints e ON e.team_id = t.team_id
      WHERE e.enabled AND (t.type = ANY (e.events) OR '*' = ANY (e.events)) AND e.created_at <= t.created_at
        -- A CRM destination (./crm.ts) gets a sign-in only when the visitor consented to be contacted on some channel.
        AND (e.kind = 'webhook' OR t.data @> '{"consent":{"email":true}}' OR t.data @> '{"consent":{"phone":true}}' OR t.data @> '{"consent":{"sms":true}}')
      ORDER BY t.created_at, t.id, e.id -- written event by event, so a claim's due rows spread over the endpoints
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM taken)::int AS events, (SELECT count(*) FROM created)::int AS deliveries,
      (SELECT count(*) FROM teams t WHERE t.team_id IS NOT NULL AND NOT EXISTS (SELECT FROM taken WHERE taken.team_id = t.team_id))::int AS passed`;
  return { events: counts.events, deliveries: counts.deliveries, more: counts.events === limit || counts.passed > 0 };
}

/**
 * Claims up to `limit` due deliveries for this process, in turns between teams (see the top of this file), at most
 * PER_ENDPOINT in flight to one endpoint counting those `held`. A claim lasts the attempt's timeout and 5 s to write
 * its outcome: the attempt of a process that died is taken up by any process after that (a receiver may then get it
 * twice, with the same webhook-id).
 */
export async function claim(limit: number, held: Held): Promise<Claimed[]> {
  const busy = [...held.endpoints].filter(([, n]) => n >= PER_ENDPOINT).map(([id]) => id);
  const holdSeconds = Math.ceil(config.WEBHOOK_TIMEOUT_MS / 1000) + 5;
  return prisma.$queryRaw<Claimed[]>`
    WITH RECURSIVE ${teamsWaiting(Prisma.sql`webhook_deliveries`, Prisma.sql`w.status = 'pending'`)},
    candidates AS (
      SELECT c.id, c.next_attempt_at,
        row_number() OVER (PARTITION BY c.team_id ORDER BY c.next_attempt_at, c.id) + coalesce(team_held.n, 0) AS turn,
        row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.id) + coalesce(endpoint_held.n, 0) AS endpoint_turn
      FROM teams t CROSS JOIN LATERAL (
        SELECT d.id, d.team_id, d.endpoint_id, d.next_attempt_at
        FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.team_id = t.team_id AND d.status = 'pending' AND d.next_attempt_at <= now()
          AND (d.claimed_until IS NULL OR d.claimed_until < now()) AND e.enabled AND NOT (d.endpoint_id = ANY (${busy}::uuid[]))
        ORDER BY d.next_attempt_at LIMIT ${limit}
        FOR UPDATE OF d SKIP LOCKED
      ) c
      LEFT JOIN unnest(${ids(held.teams)}::uuid[], ${numbers(held.teams)}::int[]) AS team_held(team_id, n) ON team_held.team_id = c.team_id
      LEFT JOIN unnest(${ids(held.endpoints)}::uuid[], ${numbers(held.endpoints)}::int[]) AS endpoint_held(endpoint_id, n) ON endpoint_held.endpoint_id = c.endpoint_id
    ), due AS (
      SELECT id FROM candidates WHERE endpoint_turn <= ${PER_ENDPOINT} ORDER BY turn, next_attempt_at LIMIT ${limit}
    ), claimed AS (
      UPDATE webhook_deliveries d SET claimed_until = now() + make_interval(secs => ${holdSeconds}), sent_at = now()
      FROM due WHERE d.id = due.id
      RETURNING d.id, d.team_id, d.attempt, d.event_id, d.endpoint_id
    )
    SELECT c.id, c.team_id AS "teamId", c.attempt, c.event_id AS "eventId", c.endpoint_id AS "endpointId", ev.type, ev.data, ev.created_at AS "createdAt",
           e.url, e.kind, e.crm_api_key AS "crmApiKey", e.secret, e.previous_secret AS "previousSecret", e.previous_secret_expires_at AS "previousSecretExpiresAt"
    FROM claimed c JOIN webhook_events ev ON ev.id = c.event_id JOIN webhook_endpoints e ON e.id = c.endpoint_id`;
}

/** Hands claimed deliveries back (a stopping process), for any process to send. */
export const release = (deliveryIds: string[]) =>
  prisma.webhookDelivery.updateMany({ where: { id: { in: deliveryIds }, status: "pending" }, data: { claimedUntil: null } });

/**
 * Writes successes together: one statement for those finished within a few ms. An event delivered to an endpoint is
 * not sent to it again: its other attempts still waiting there (a retry beside a redelivery) are dropped unsent.
 */
export const successWriter = () =>
  new DataLoader<Outcome & { id: string; responseStatus: number }, void>(
    async (batch) => {
      const batchIds = batch.map((b) => b.id);
      const headers = batch.map((b) => (b.requestHeaders ? JSON.stringify(b.requestHeaders) : null));
      const bodies = batch.map((b) => b.responseBody ?? null);
      await prisma.$executeRaw`
        WITH done AS (
          UPDATE webhook_deliveries d
          SET status = 'succeeded', response_status = v.status, duration_ms = v.ms, error = NULL, next_attempt_at = NULL, claimed_until = NULL,
            request_headers = v.headers::jsonb, response_body = v.body
          FROM unnest(${batchIds}::uuid[], ${batch.map((b) => b.responseStatus)}::int[], ${batch.map((b) => b.durationMs)}::int[], ${headers}::text[], ${bodies}::text[])
            AS v(id, status, ms, headers, body)
          WHERE d.id = v.id
          RETURNING d.event_id, d.endpoint_id
        )
        DELETE FROM webhook_deliveries p USING done
        WHERE p.event_id = done.event_id AND p.endpoint_id = done.endpoint_id AND p.status = 'pending'
          AND (p.claimed_until IS NULL OR p.claimed_until < now()) AND NOT (p.id = ANY (${batchIds}::uuid[]))`;
      return batch.map(() => undefined);
    },
    { cache: false, batchScheduleFn: (send) => setTimeout(send, 5) },
  );

/**
 * Writes a failed attempt: the endpoint disabled (410 Gone); or the next attempt scheduled per WEBHOOK_RETRY_SCHEDULE,
 * unless the event already reached the endpoint or another attempt is waiting for it (a redelivery); or failed.
 */
export async function recordFailure(d: Claimed, o: Outcome): Promise<void> {
  const wait = config.WEBHOOK_RETRY_SCHEDULE[d.attempt - 1];
  if (!o.refused) logger.warn({ deliveryId: d.id, endpointId: d.endpointId, eventId: d.eventId, attempt: d.attempt, status: o.responseStatus, error: o.error, retryInSeconds: wait ?? null }, "webhook delivery failed");
  const result = {
    responseStatus: o.responseStatus,
    durationMs: o.durationMs,
    error: o.error,
    requestHeaders: o.requestHeaders ?? Prisma.DbNull,
    responseBody: o.responseBody ?? null,
    nextAttemptAt: null,
    claimedUntil: null,
  };
  await prisma.$transaction(async (tx) => {
    if (o.responseStatus === 410) {
      await tx.webhookEndpoint.update({ where: { id: d.endpointId }, data: { enabled: false, disabledReason: `The endpoint answered 410 Gone on ${new Date().toISOString()}` } });
      await tx.webhookDelivery.update({ where: { id: d.id }, data: { ...result, status: "failed" } });
      return;
    }
    const others = await tx.webhookDelivery.findMany({
      where: { eventId: d.eventId, endpointId: d.endpointId, id: { not: d.id }, status: { in: ["succeeded", "pending"] } },
      select: { status: true },
    });
    const delivered = others.some((other) => other.status === "succeeded");
    const waiting = others.length > 0 && !delivered;
    const retry = wait !== undefined && others.length === 0 && !o.refused;
    await tx.webhookDelivery.update({ where: { id: d.id }, data: { ...result, status: retry || waiting ? "retrying" : "failed" } });
    if (retry) {
      await tx.webhookDelivery.create({
        data: { teamId: d.teamId, eventId: d.eventId, endpointId: d.endpointId, attempt: d.attempt + 1, nextAttemptAt: new Date(Date.now() + wait * 1000) },
      });
    }
  });
}

/** Deletes the events older than 30 days; their deliveries go with them (foreign key ON DELETE CASCADE). */
export async function prune(): Promise<void> {
  const cutoff = new Date(Date.now() - RETENTION_DAYS * 86_400_000);
  await prisma.webhookEvent.deleteMany({ where: { createdAt: { lt: cutoff } } }).catch((err) => logger.warn({ err }, "could not prune webhook events"));
}
