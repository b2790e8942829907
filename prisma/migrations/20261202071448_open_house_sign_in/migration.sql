-- CreateTable
CREATE TABLE "sign_in_links" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "showing_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "token_sealed" TEXT NOT NULL,
    "label" TEXT,
    "questions" JSONB NOT NULL DEFAULT '[]',
    "form_secret" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sign_in_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attendees" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "showing_id" UUID NOT NULL,
    "link_id" UUID,
    "name" TEXT,
    "email" TEXT,
    "phone" TEXT,
    "email_index" TEXT,
    "phone_index" TEXT,
    "working_with_agent" TEXT NOT NULL DEFAULT 'unsaid',
    "answers" JSONB NOT NULL DEFAULT '[]',
    "sign_ins" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attendees_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "consent_receipts" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "attendee_id" UUID NOT NULL,
    "showing_id" UUID NOT NULL,
    "link_id" UUID,
    "consent_email" BOOLEAN NOT NULL,
    "consent_phone" BOOLEAN NOT NULL,
    "consent_sms" BOOLEAN NOT NULL,
    "text_version" TEXT NOT NULL,
    "text_sha256" TEXT NOT NULL,
    "ip" TEXT,
    "user_agent" TEXT,
    "email_index" TEXT,
    "phone_index" TEXT,
    "withdraw_token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "withdrawn_at" TIMESTAMPTZ(3),

    CONSTRAINT "consent_receipts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sign_in_links_token_hash_key" ON "sign_in_links"("token_hash");

-- CreateIndex
CREATE INDEX "sign_in_links_showing_id_created_at_id_idx" ON "sign_in_links"("showing_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "attendees_showing_id_email_index_idx" ON "attendees"("showing_id", "email_index");

-- CreateIndex
CREATE INDEX "attendees_showing_id_phone_index_idx" ON "attendees"("showing_id", "phone_index");

-- CreateIndex
CREATE INDEX "attendees_team_id_email_index_idx" ON "attendees"("team_id", "email_index");

-- CreateIndex
CREATE INDEX "attendees_team_id_phone_index_idx" ON "attendees"("team_id", "phone_index");

-- CreateIndex
CREATE UNIQUE INDEX "consent_receipts_withdraw_token_hash_key" ON "consent_receipts"("withdraw_token_hash");

-- CreateIndex
CREATE INDEX "consent_receipts_team_id_showing_id_created_at_idx" ON "consent_receipts"("team_id", "showing_id", "created_at");

-- CreateIndex
CREATE INDEX "consent_receipts_team_id_email_index_idx" ON "consent_receipts"("team_id", "email_index");

-- CreateIndex
CREATE INDEX "consent_receipts_team_id_phone_index_idx" ON "consent_receipts"("team_id", "phone_index");

-- CreateIndex
CREATE INDEX "consent_receipts_attendee_id_idx" ON "consent_receipts"("attendee_id");

-- AddForeignKey
ALTER TABLE "sign_in_links" ADD CONSTRAINT "sign_in_links_showing_id_fkey" FOREIGN KEY ("showing_id") REFERENCES "showings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attendees" ADD CONSTRAINT "attendees_showing_id_fkey" FOREIGN KEY ("showing_id") REFERENCES "showings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written below.

-- Consent receipts are the legal record of what a visitor agreed to: append-only. No statement deletes or empties
-- one; an update may only record a withdrawal (withdrawn_at from NULL to a time, nothing else changed), or, in a
-- transaction that says so first (SELECT set_config('prs.attendee_erase', 'on', true)), replace the address and user
-- agent of an erased person (their lookup keys stay: the keyed hash is the record).
CREATE FUNCTION "prs_consent_receipts_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF OLD.withdrawn_at IS NULL AND NEW.withdrawn_at IS NOT NULL
       AND (to_jsonb(NEW) - 'withdrawn_at') = (to_jsonb(OLD) - 'withdrawn_at') THEN
      RETURN NEW;
    END IF;
    IF current_setting('prs.attendee_erase', true) = 'on'
       AND (to_jsonb(NEW) - 'ip' - 'user_agent') = (to_jsonb(OLD) - 'ip' - 'user_agent') THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'consent_receipts is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER "consent_receipts_append_only"
  BEFORE UPDATE OR DELETE ON "consent_receipts" FOR EACH ROW EXECUTE FUNCTION "prs_consent_receipts_append_only"();
CREATE TRIGGER "consent_receipts_no_truncate"
  BEFORE TRUNCATE ON "consent_receipts" FOR EACH STATEMENT EXECUTE FUNCTION "prs_consent_receipts_append_only"();

-- attendees:read and attendees:delete are part of full team access: keys that hold every action on every other team
-- resource get them.
UPDATE "api_keys" SET "permissions" = "permissions" || '{"attendees": ["read", "delete"]}'::jsonb
WHERE "permissions" @> '{"reports": ["read", "create", "update", "delete", "publish"], "comparables": ["read", "create", "update", "delete", "publish"], "showings": ["read", "create", "update", "delete", "publish"], "social_media": ["read", "create", "update", "delete", "publish"], "ai_insights": ["read", "create", "update", "delete", "publish"], "team": ["read", "create", "update", "delete", "publish"], "webhooks": ["read", "create", "update", "delete", "publish"], "audit_log": ["read"]}'::jsonb;
