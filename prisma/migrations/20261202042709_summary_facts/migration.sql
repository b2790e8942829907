-- AlterTable
ALTER TABLE "reports" ADD COLUMN     "summary_facts" JSONB;
