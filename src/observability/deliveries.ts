// What the webhook worker reports of each delivery attempt: its outcome and latency (Prometheus) and a span around
// it (traces), each only when on.
import { metricsEnabled } from "./metrics";
import { countDelivery, type DeliveryOutcome } from "./series";
import { deliverySpan } from "./spans";
import { tracing } from "./tracing";

export interface DeliveryAttempt {
  id: string;
  endpointId: string;
  eventId: string;
  type: string;
  attempt: number;
}

/** Runs one attempt (`send`) under its span, and counts its outcome. */
export function observeDelivery<T extends DeliveryOutcome>(d: DeliveryAttempt, send: () => Promise<T>): Promise<T> {
  const attributes = { "webhook.delivery.id": d.id, "webhook.endpoint.id": d.endpointId, "webhook.event.id": d.eventId, "webhook.event.type": d.type, "webhook.delivery.attempt": d.attempt };
  const sent = tracing ? deliverySpan(attributes, send) : send();
  return metricsEnabled ? sent.then((outcome) => (countDelivery(outcome), outcome)) : sent;
}
