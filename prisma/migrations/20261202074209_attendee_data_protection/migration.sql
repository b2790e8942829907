-- AlterTable
ALTER TABLE "showings" ADD COLUMN     "attendee_email_index" TEXT,
ADD COLUMN     "attendee_phone_index" TEXT;

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "crm_api_key" TEXT,
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'webhook';

-- CreateTable
CREATE TABLE "attendee_suppressions" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "email_index" TEXT,
    "phone_index" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attendee_suppressions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "attendee_suppressions_team_id_email_index_idx" ON "attendee_suppressions"("team_id", "email_index");

-- CreateIndex
CREATE INDEX "attendee_suppressions_team_id_phone_index_idx" ON "attendee_suppressions"("team_id", "phone_index");

-- CreateIndex
CREATE INDEX "showings_team_id_attendee_email_index_idx" ON "showings"("team_id", "attendee_email_index");

-- CreateIndex
CREATE INDEX "showings_team_id_attendee_phone_index_idx" ON "showings"("team_id", "attendee_phone_index");

-- AddForeignKey
ALTER TABLE "attendee_suppressions" ADD CONSTRAINT "attendee_suppressions_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The showings' attendee fields already stored are encrypted, and their keyed hashes written, by the service at
-- start (src/db/attendee-data.ts): AES-GCM under the application's key cannot be computed in SQL.
