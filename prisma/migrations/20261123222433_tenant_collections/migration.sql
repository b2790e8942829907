-- Wave 2 collections: comparables and agent insights gain their fields; every tenant table carries team_id, and
-- its foreign key to the report becomes (report_id, team_id), so a row can only belong to a report of its own team.
-- Existing rows take their report's team; a comparable's missing status becomes 'sold', an insight's missing
-- category 'other' (the defaults of DECISIONS).

-- DropForeignKey
ALTER TABLE "comparables" DROP CONSTRAINT "comparables_report_id_fkey";

-- DropForeignKey
ALTER TABLE "showings" DROP CONSTRAINT "showings_report_id_fkey";

-- DropForeignKey
ALTER TABLE "social_media_posts" DROP CONSTRAINT "social_media_posts_report_id_fkey";

-- DropForeignKey
ALTER TABLE "agent_insights" DROP CONSTRAINT "agent_insights_report_id_fkey";

-- DropIndex
DROP INDEX "comparables_report_id_created_at_idx";

-- DropIndex
DROP INDEX "showings_report_id_created_at_idx";

-- DropIndex
DROP INDEX "social_media_posts_report_id_created_at_idx";

-- DropIndex
DROP INDEX "agent_insights_report_id_created_at_idx";

-- AlterTable
ALTER TABLE "comparables" ADD COLUMN     "adjustments" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "days_on_market" INTEGER,
ADD COLUMN     "included" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "latitude" DOUBLE PRECISION,
ADD COLUMN     "longitude" DOUBLE PRECISION,
ADD COLUMN     "lot_size" DOUBLE PRECISION,
ADD COLUMN     "mls_id" TEXT,
ADD COLUMN     "team_id" UUID,
ADD COLUMN     "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "year_built" INTEGER,
ALTER COLUMN "status" SET DEFAULT 'sold';
UPDATE "comparables" SET "status" = 'sold' WHERE "status" IS NULL;
ALTER TABLE "comparables" ALTER COLUMN "status" SET NOT NULL;

-- AlterTable
ALTER TABLE "social_media_posts" ADD COLUMN     "team_id" UUID;

-- AlterTable
ALTER TABLE "agent_insights" ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'agent',
ADD COLUMN     "team_id" UUID,
ADD COLUMN     "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ALTER COLUMN "category" SET DEFAULT 'other';
UPDATE "agent_insights" SET "category" = 'other' WHERE "category" IS NULL;
ALTER TABLE "agent_insights" ALTER COLUMN "category" SET NOT NULL;

-- Backfill team_id from the report
UPDATE "comparables" c SET "team_id" = r."team_id" FROM "reports" r WHERE r."id" = c."report_id";
UPDATE "social_media_posts" c SET "team_id" = r."team_id" FROM "reports" r WHERE r."id" = c."report_id";
UPDATE "agent_insights" c SET "team_id" = r."team_id" FROM "reports" r WHERE r."id" = c."report_id";
ALTER TABLE "comparables" ALTER COLUMN "team_id" SET NOT NULL;
ALTER TABLE "social_media_posts" ALTER COLUMN "team_id" SET NOT NULL;
ALTER TABLE "agent_insights" ALTER COLUMN "team_id" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "reports_id_team_id_key" ON "reports"("id", "team_id");

-- CreateIndex
CREATE INDEX "comparables_report_id_created_at_id_idx" ON "comparables"("report_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "showings_report_id_created_at_id_idx" ON "showings"("report_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "social_media_posts_report_id_created_at_id_idx" ON "social_media_posts"("report_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "agent_insights_report_id_created_at_id_idx" ON "agent_insights"("report_id", "created_at", "id");

-- AddForeignKey
ALTER TABLE "comparables" ADD CONSTRAINT "comparables_report_id_team_id_fkey" FOREIGN KEY ("report_id", "team_id") REFERENCES "reports"("id", "team_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "showings" ADD CONSTRAINT "showings_report_id_team_id_fkey" FOREIGN KEY ("report_id", "team_id") REFERENCES "reports"("id", "team_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "social_media_posts" ADD CONSTRAINT "social_media_posts_report_id_team_id_fkey" FOREIGN KEY ("report_id", "team_id") REFERENCES "reports"("id", "team_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_insights" ADD CONSTRAINT "agent_insights_report_id_team_id_fkey" FOREIGN KEY ("report_id", "team_id") REFERENCES "reports"("id", "team_id") ON DELETE CASCADE ON UPDATE CASCADE;
