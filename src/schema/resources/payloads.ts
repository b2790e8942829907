// Webhook payloads of reports and showings: the resource as its REST GET shows it, built from its field table inside
// the change's transaction and handed to the outbox (src/webhooks/outbox.ts, recordEvent), which takes the payload as
// it is and knows no resource (docs/api.md "Webhooks").
import type { Tx } from "../../webhooks/outbox";
import { restRecord } from "../fields";
import { reportFields } from "./report/fields";
import { showingFields } from "./showing/fields";

/** The report as its REST GET shows it, without its collections (docs/api.md "Webhooks": the payload of report events). */
export async function reportRecord(tx: Tx, id: string): Promise<Record<string, unknown>> {
  const row = await tx.report.findUniqueOrThrow({ where: { id }, include: { _count: { select: { showings: true } } } });
  return restRecord(reportFields, row);
}

/**
 * The showing as its REST GET shows it, its attendee fields as stored (encrypted): the event keeps them so, and
 * they are opened where the event is sent or shown (openSealedFields, docs/data-protection.md).
 */
export async function showingRecord(tx: Tx, id: string): Promise<Record<string, unknown>> {
  const row = await tx.showing.findUniqueOrThrow({ where: { id } });
  return { ...restRecord(showingFields, row), attendee_name: row.attendeeName, attendee_email: row.attendeeEmail, attendee_phone: row.attendeePhone };
}
