-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "budget_key_id" UUID,
ADD COLUMN     "last_used_ip" TEXT,
ADD COLUMN     "last_used_route" TEXT,
ADD COLUMN     "replaced_by_id" UUID;

-- CreateTable
CREATE TABLE "audit_log" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "action" TEXT NOT NULL,
    "actor_type" TEXT NOT NULL,
    "actor_key_id" UUID,
    "actor_key_name" TEXT,
    "actor_key_prefix" TEXT,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "changes" JSONB NOT NULL DEFAULT '{}',
    "ip" TEXT,
    "request_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_log_team_id_created_at_id_idx" ON "audit_log"("team_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "audit_log_created_at_idx" ON "audit_log"("created_at");

-- Hand-written below.

-- The audit log is append-only: no statement changes an entry, and only the retention job deletes, in a transaction
-- that says so first (SELECT set_config('prs.audit_retention', 'on', true); src/audit/retention.ts). A database role
-- that must not even do that should be granted INSERT and SELECT on audit_log only.
CREATE FUNCTION "prs_audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('prs.audit_retention', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER "audit_log_append_only"
  BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "prs_audit_log_append_only"();
CREATE TRIGGER "audit_log_no_truncate"
  BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION "prs_audit_log_append_only"();

-- audit_log:read is part of full team access: keys that hold every action on every other team resource get it.
UPDATE "api_keys" SET "permissions" = "permissions" || '{"audit_log": ["read"]}'::jsonb
WHERE "permissions" @> '{"reports": ["read", "create", "update", "delete", "publish"], "comparables": ["read", "create", "update", "delete", "publish"], "showings": ["read", "create", "update", "delete", "publish"], "social_media": ["read", "create", "update", "delete", "publish"], "ai_insights": ["read", "create", "update", "delete", "publish"], "team": ["read", "create", "update", "delete", "publish"], "webhooks": ["read", "create", "update", "delete", "publish"]}'::jsonb;
