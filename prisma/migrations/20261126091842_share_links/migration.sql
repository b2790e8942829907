-- CreateTable
CREATE TABLE "share_links" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "report_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "label" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "share_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "share_links_token_hash_key" ON "share_links"("token_hash");

-- CreateIndex
CREATE INDEX "share_links_report_id_created_at_id_idx" ON "share_links"("report_id", "created_at", "id");

-- AddForeignKey
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_report_id_team_id_fkey" FOREIGN KEY ("report_id", "team_id") REFERENCES "reports"("id", "team_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The permission share links need, reports:share, is held by full-access keys: keys made before it existed that hold
-- every other action on reports (a key made without a permission list, the first-start key, reports:*) gain it.
UPDATE "api_keys"
SET "permissions" = jsonb_set("permissions", '{reports}', ("permissions"->'reports') || '["share"]'::jsonb)
WHERE ("permissions"->'reports') @> '["read", "create", "update", "delete", "publish"]'::jsonb
  AND NOT (("permissions"->'reports') @> '["share"]'::jsonb);
