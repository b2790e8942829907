// The transactional outbox: an event is written by the transaction that makes the change, together with one pending
// delivery per enabled endpoint of the team subscribed to its type, so a change that rolls back emits nothing and a
// crash after the commit loses nothing. The delivery worker (./worker.ts) sends them, in whichever process claims
// them first. Events are recorded by the GraphQL mutations, the one place every change passes.
import { randomBytes } from "node:crypto";
import { config } from "../config";
import { prisma } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { restRecord } from "../schema/fields";
import { reportFields } from "../schema/resources/report/fields";
import { showingFields } from "../schema/resources/showing/fields";
import type { EventType } from "./catalog";

export type Tx = Prisma.TransactionClient;

/** `evt_` and 24 random characters: the event's id, sent as `webhook-id` on every attempt. */
export const newEventId = (): string => `evt_${randomBytes(18).toString("base64url")}`;

/** Listeners told after a commit that recorded events (the worker of this process sends them at once). */
const listeners = new Set<() => void>();
export const onEventsRecorded = (listener: () => void): (() => void) => (listeners.add(listener), () => listeners.delete(listener));
export const eventsRecorded = (): void => listeners.forEach((listener) => listener());

/**
 * Records an event and its first delivery to each subscribed, enabled endpoint of the team (or to `endpointId`
 * only, for a test event), in one statement of the caller's transaction.
 */
export async function recordEvent(tx: Tx, teamId: string, type: EventType, data: unknown, endpointId?: string): Promise<string> {
  const id = newEventId();
  await tx.$executeRaw`
    WITH event AS (
      INSERT INTO webhook_events (id, team_id, type, data) VALUES (${id}, ${teamId}::uuid, ${type}, ${JSON.stringify(data)}::jsonb)
      RETURNING id, team_id, type
    )
    INSERT INTO webhook_deliveries (id, team_id, event_id, endpoint_id, next_attempt_at)
    SELECT gen_random_uuid(), event.team_id, event.id, e.id, now()
    FROM event JOIN webhook_endpoints e ON e.team_id = event.team_id
    WHERE ${endpointId ?? null}::uuid IS NULL AND e.enabled AND (event.type = ANY (e.events) OR '*' = ANY (e.events))
       OR e.id = ${endpointId ?? null}::uuid`;
  return id;
}

/** The report as its REST GET shows it, without its collections (DECISIONS: the payload of report events). */
export async function reportRecord(tx: Tx, id: string): Promise<Record<string, unknown>> {
  const row = await tx.report.findUniqueOrThrow({ where: { id }, include: { _count: { select: { showings: true } } } });
  return restRecord(reportFields, row);
}

/** The showing as its REST GET shows it. */
export async function showingRecord(tx: Tx, id: string): Promise<Record<string, unknown>> {
  return restRecord(showingFields, await tx.showing.findUniqueOrThrow({ where: { id } }));
}

/** Runs `fn` in a transaction that may record events, and wakes this process's delivery worker once it committed. */
export async function withEvents<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  // Prisma's own limits (2 s to start, 5 s in all) would be tighter than the service's: waiting for a connection
  // answers 503 and a slow statement 504 after DB_TIMEOUT_MS (src/db/open.ts), as for every other write.
  const result = await prisma.$transaction(fn, { maxWait: config.DB_TIMEOUT_MS, timeout: 2 * config.DB_TIMEOUT_MS });
  eventsRecorded();
  return result;
}
