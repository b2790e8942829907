// The event types a webhook endpoint can subscribe to (docs/api.md "Webhooks"), each with what it means. Endpoints
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
  "comparable.created": "A comparable was added to a report. data: the comparable, with report_id and its computed prices",
  "comparable.updated": "A comparable changed. data: the comparable",
  "comparable.deleted": "A comparable was deleted. data: { id, report_id }",
  "comparables.replaced": "A report's whole set of comparables was replaced (PUT). data: { report_id, comparables: [ the new set ] }",
  "insight.created": "An agent insight was added to a report. data: the insight, with report_id",
  "insight.updated": "An agent insight changed. data: the insight",
  "insight.deleted": "An agent insight was deleted. data: { id, report_id }",
  "social_posts.imported": "An import created or updated social media posts of a report. data: { report_id, created, updated, unchanged, skipped_stale, failed }",
  "summary.generated": "An executive summary was generated and saved to a report (a preview with save: false sends none). data: { report_id, executive_summary, source, model, generated_at, warnings }",
  "visitor.signed_in":
    "A visitor signed in to an open house by its sign-in link. data: { id (the attendee), showing_id, report_id, link_id, consent_receipt_id, new_attendee, sign_ins, attendees_count, working_with_agent, consent: { email, phone, sms }, signed_in_at }; never the visitor's name, e-mail or phone",
  "share_link.viewed":
    "A share link's page or PDF was opened: its first visit, then the first of each later day (UTC). data: { link_id, report_id, label, first_view, views_count, viewed_at }; never the token or who opened it",
  "webhook.test": "Sent to one endpoint by POST /v1/webhooks/{id}/test. data: { webhook_id, message }",
} as const;

export type EventType = keyof typeof EVENT_TYPES;

export const isEventType = (value: string): value is EventType => Object.hasOwn(EVENT_TYPES, value);
