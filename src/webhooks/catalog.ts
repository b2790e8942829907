// The event types a webhook endpoint can subscribe to (DECISIONS "Webhooks"), each with what it means. Endpoints
// list the types they want, or "*" for all.
export const EVENT_TYPES = {
  "report.created": "A report was created (as a draft). data: the report as GET /v1/reports/{id} returns it, without its collections",
  "report.updated": "Fields of a report other than its publication state changed. data: the report",
  "report.published": "A report was published. data: the report",
  "report.unpublished": "A published report went back to draft. data: the report",
  "report.deleted": "A report was deleted, with everything attached to it. data: { id }",
  "showing.created": "A showing or open house was added to a report. data: the showing, with report_id",
  "showing.updated": "A showing changed. data: the showing",
  "showing.deleted": "A showing was deleted. data: { id, report_id }",
  "webhook.test": "Sent to one endpoint by POST /v1/webhooks/{id}/test. data: { webhook_id, message }",
} as const;

export type EventType = keyof typeof EVENT_TYPES;

export const isEventType = (value: string): value is EventType => Object.hasOwn(EVENT_TYPES, value);
