// The transactional outbox: an event is written by the transaction that makes the change, so a change that rolls back
// emits nothing and a crash after the commit loses nothing. It is one row whatever the number of endpoints: the
// delivery worker (./worker.ts), in whichever process claims it first, creates one delivery per endpoint of the team
// enabled and subscribed to its type then. Events are recorded by the GraphQL mutations, the one place every change
// passes.
import { randomBytes } from "node:crypto";
import { config } from "../config";
import { prisma } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { liveBus } from "../live/bus";
import type { EventType } from "./catalog";

export type Tx = Prisma.TransactionClient;

/** `evt_` and 24 random characters: the event's id, sent as `webhook-id` on every attempt. */
export const newEventId = (): string => `evt_${randomBytes(18).toString("base64url")}`;

/** Listeners told after a commit that recorded events (the worker of this process sends them at once). */
const listeners = new Set<() => void>();
export const onEventsRecorded = (listener: () => void): (() => void) => (listeners.add(listener), () => listeners.delete(listener));
export const eventsRecorded = (): void => listeners.forEach((listener) => listener());

/**
 * Records an event in the caller's transaction, in one statement: marked for the worker to create its deliveries
 * when an enabled endpoint of the team is subscribed to its type; for a test event (`endpointId`), with its one
 * delivery to that endpoint at once.
 */
export async function recordEvent(tx: Tx, teamId: string, type: EventType, data: unknown, endpointId?: string): Promise<string> {
  const id = newEventId();
  recordedTeams.get(tx)?.add(teamId);
  const payload = JSON.stringify(data);
  if (endpointId) {
    await tx.$executeRaw`
      WITH event AS (
        INSERT INTO webhook_events (id, team_id, type, data) VALUES (${id}, ${teamId}::uuid, ${type}, ${payload}::jsonb) RETURNING id, team_id
      )
      INSERT INTO webhook_deliveries (id, team_id, event_id, endpoint_id, next_attempt_at)
      SELECT gen_random_uuid(), event.team_id, event.id, e.id, now()
      FROM event JOIN webhook_endpoints e ON e.id = ${endpointId}::uuid AND e.team_id = event.team_id`;
  } else {
    await tx.$executeRaw`
      INSERT INTO webhook_events (id, team_id, type, data, fan_out_pending)
      VALUES (${id}, ${teamId}::uuid, ${type}, ${payload}::jsonb, EXISTS (
        SELECT FROM webhook_endpoints e WHERE e.team_id = ${teamId}::uuid AND e.enabled AND (${type} = ANY (e.events) OR '*' = ANY (e.events))))`;
  }
  return id;
}

/** The teams each open transaction recorded events of: announced to live streams once it committed. */
const recordedTeams = new WeakMap<Tx, Set<string>>();

/**
 * Runs `fn` in a transaction that may record events; once it committed, wakes this process's delivery worker and
 * tells every process's live streams which teams have new events (docs/api.md "Live updates").
 */
export async function withEvents<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  const teams = new Set<string>();
  // Prisma's own limits (2 s to start, 5 s in all) would be tighter than the service's: waiting for a connection
  // answers 503 and a slow statement 504 after DB_TIMEOUT_MS (src/db/open.ts), as for every other write.
  const result = await prisma.$transaction(
    (tx) => {
      recordedTeams.set(tx, teams);
      return fn(tx);
    },
    { maxWait: config.DB_TIMEOUT_MS, timeout: 2 * config.DB_TIMEOUT_MS },
  );
  eventsRecorded();
  if (teams.size) liveBus().eventsCommitted(teams);
  return result;
}
