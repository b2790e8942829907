// The audit log (docs/api.md "Audit log"): every change to a team's access and configuration is
// recorded by the transaction that makes the change — a change that rolls back records nothing, one that commits
// cannot lose its entry. An entry says who (the key's id, name and prefix, or the CLI), what (action and target),
// from where (client address, request id) and the before/after of the changed fields. Only fields on the allow-list
// of the target's type are ever written: a secret, token or key hash cannot reach the log however a caller builds its
// records, and a URL is written with its user info and query values redacted (./redact.ts). Entries are never
// changed or deleted, except by the retention job (./retention.ts; the table's trigger refuses anything else).
import { randomUUID } from "node:crypto";
import type { Context } from "../context";
import type { Prisma } from "../generated/prisma/client";
import { redactUrl } from "./redact";
import { pruneAuditLogNowAndThen } from "./retention";

type Tx = Prisma.TransactionClient;

/** The actions of docs/api.md "Sharing, records and operations" (a webhook endpoint disabled is webhook.updated with enabled false). */
export const AUDIT_ACTIONS = [
  "api_key.created",
  "api_key.rolled",
  "api_key.revoked",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.secret_rotated",
  "crm_destination.created",
  "crm_destination.updated",
  "crm_destination.deleted",
  "share_link.created",
  "share_link.revoked",
  "sign_in_link.created",
  "sign_in_link.revoked",
  "consent.withdrawn",
  "attendee.exported",
  "attendee.erased",
  "report.created",
  "report.updated",
  "report.published",
  "report.unpublished",
  "report.deleted",
  "summary.generated",
  "graphql_documents.registered",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What each kind of target may show in `changes`, under its REST names. Anything else is left out. */
const RECORDED_FIELDS = {
  api_key: ["name", "description", "prefix", "permissions", "rate_limit_tier", "expires_at", "revoked_at", "replaced_by_key_id"],
  webhook: ["url", "events", "description", "enabled", "disabled_reason"],
  // A CRM destination's API key is never recorded: `api_key: "replaced"` says a new one was set.
  crm_destination: ["kind", "url", "events", "description", "enabled", "disabled_reason", "api_key"],
  share_link: ["report_id", "label", "expires_at", "revoked_at"],
  sign_in_link: ["showing_id", "label", "expires_at", "revoked_at"],
  consent_receipt: ["showing_id", "withdrawn_at"],
  // A person's data looked up or erased: the target id is the keyed hash of the e-mail or phone, never the value.
  attendee: ["by", "sign_ins", "showings", "consents", "consents_pseudonymised"],
  // The facts and what the client is shown; long texts (description, executive summary) are left out.
  report: [
    "address",
    "city",
    "state",
    "zip",
    "status",
    "price",
    "beds",
    "baths",
    "sqft",
    "year_built",
    "lot_size",
    "property_type",
    "listing_agent",
    "custom_agent_name",
    "custom_agent_email",
    "agent_phone",
    "brokerage_name",
    "agent_license",
    "primary_color",
    "secondary_color",
    "show_comps_on_report",
    "show_showings_on_report",
    "show_social_on_report",
    "show_agent_insights_on_report",
    "show_neighborhood_on_report",
  ],
  graphql_documents: ["registered", "unchanged"],
} as const;
export type AuditTargetType = keyof typeof RECORDED_FIELDS;
export const AUDIT_TARGET_TYPES = Object.keys(RECORDED_FIELDS) as AuditTargetType[];
/** Who can make a change: a request's API key, or the `prs` command line. */
export const AUDIT_ACTOR_TYPES = ["api_key", "cli"] as const;

export type FieldValues = Record<string, unknown>;
export type Changes = Record<string, { before: unknown; after: unknown }>;

/** Who made the change: the request's key (its context), or the `prs` command line. */
export type AuditActor = Context | "cli";

export interface AuditEntry {
  teamId: string;
  action: AuditAction;
  target: { type: AuditTargetType; id: string };
  /** The target's fields before and after the change (REST names; null: it did not exist before / after). */
  before?: FieldValues | null;
  after?: FieldValues | null;
}

/** Fields holding a URL: recorded with user info and query values redacted (./redact.ts). */
const URL_FIELDS: ReadonlySet<string> = new Set(["url"]);

const jsonValue = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : (value ?? null));
const recorded = (field: string, value: unknown): unknown => (URL_FIELDS.has(field) && typeof value === "string" ? redactUrl(value) : value);

/**
 * The allow-listed fields whose value differs between `before` and `after`, each as { before, after }. A URL is
 * compared as it is and recorded redacted: a changed token shows as a change of `url`, never as the token.
 */
export function changesOf(type: AuditTargetType, before: FieldValues | null | undefined, after: FieldValues | null | undefined): Changes {
  const changes: Changes = {};
  for (const field of RECORDED_FIELDS[type]) {
    if (!(before && field in before) && !(after && field in after)) continue;
    const was = jsonValue(before?.[field]);
    const is = jsonValue(after?.[field]);
    if (JSON.stringify(was) !== JSON.stringify(is)) changes[field] = { before: recorded(field, was), after: recorded(field, is) };
  }
  return changes;
}

/**
 * Records one entry in the caller's transaction `tx` (the one making the change). The key's name is read by the
 * same statement, as it is at that moment.
 */
export async function recordAudit(tx: Tx, actor: AuditActor, entry: AuditEntry): Promise<void> {
  const viewer = actor === "cli" ? null : actor.viewer;
  const request = actor === "cli" ? undefined : actor;
  const changes = JSON.stringify(changesOf(entry.target.type, entry.before, entry.after));
  await tx.$executeRaw`
    INSERT INTO audit_log (id, team_id, action, actor_type, actor_key_id, actor_key_name, actor_key_prefix, target_type, target_id, changes, ip, request_id)
    VALUES (${randomUUID()}::uuid, ${entry.teamId}::uuid, ${entry.action}, ${viewer ? "api_key" : "cli"}, ${viewer?.keyId ?? null}::uuid,
      (SELECT name FROM api_keys WHERE id = ${viewer?.keyId ?? null}::uuid), ${viewer?.keyPrefix ?? null}, ${entry.target.type}, ${entry.target.id},
      ${changes}::jsonb, ${request?.clientAddress ?? null}, ${request?.requestId ?? null})`;
  // Service processes prune; the prs command line writes its entry and exits (a prune would outlive its database).
  if (actor !== "cli") pruneAuditLogNowAndThen();
}
