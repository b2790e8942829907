-- AlterTable
ALTER TABLE "reports" ADD COLUMN     "agent_photo_id" UUID,
ADD COLUMN     "brokerage_logo_id" UUID;

-- Hand-written: a deleted photo leaves the report without it (Prisma models no relation for these two columns;
-- that the photo is the report's own is checked by updateReport).
ALTER TABLE "reports" ADD CONSTRAINT "reports_agent_photo_id_fkey" FOREIGN KEY ("agent_photo_id") REFERENCES "photos"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "reports" ADD CONSTRAINT "reports_brokerage_logo_id_fkey" FOREIGN KEY ("brokerage_logo_id") REFERENCES "photos"("id") ON DELETE SET NULL ON UPDATE CASCADE;
