-- AlterTable
ALTER TABLE "share_links" ADD COLUMN     "last_viewed_at" TIMESTAMPTZ(3),
ADD COLUMN     "views_count" INTEGER NOT NULL DEFAULT 0;
