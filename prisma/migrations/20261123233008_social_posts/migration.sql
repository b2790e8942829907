-- Social media posts become importable (DECISIONS "Social media posts and engagement import"): counts are 64-bit
-- and may be unknown (null), each post has the platform's id, unique per report and platform, and the time its
-- counts were read. Existing rows: platform lower-cased (twitter is x, anything unknown other), a missing
-- external_id becomes the row's own id, posts duplicated by that key keep the newest.

UPDATE "social_media_posts" SET "platform" = CASE
    WHEN lower("platform") = 'twitter' THEN 'x'
    WHEN lower("platform") IN ('instagram', 'facebook', 'tiktok', 'x', 'linkedin', 'youtube') THEN lower("platform")
    ELSE 'other' END;
UPDATE "social_media_posts" SET "external_id" = "id"::text WHERE "external_id" IS NULL;
DELETE FROM "social_media_posts" p USING "social_media_posts" q
    WHERE p."report_id" = q."report_id" AND p."platform" = q."platform" AND p."external_id" = q."external_id"
      AND (p."created_at", p."id") < (q."created_at", q."id");

-- AlterTable
ALTER TABLE "social_media_posts" ADD COLUMN     "metrics_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "reach" BIGINT,
ADD COLUMN     "saves" BIGINT,
ADD COLUMN     "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ALTER COLUMN "external_id" SET NOT NULL,
ALTER COLUMN "likes" DROP NOT NULL,
ALTER COLUMN "likes" DROP DEFAULT,
ALTER COLUMN "likes" SET DATA TYPE BIGINT,
ALTER COLUMN "comments" DROP NOT NULL,
ALTER COLUMN "comments" DROP DEFAULT,
ALTER COLUMN "comments" SET DATA TYPE BIGINT,
ALTER COLUMN "shares" DROP NOT NULL,
ALTER COLUMN "shares" DROP DEFAULT,
ALTER COLUMN "shares" SET DATA TYPE BIGINT,
ALTER COLUMN "views" DROP NOT NULL,
ALTER COLUMN "views" DROP DEFAULT,
ALTER COLUMN "views" SET DATA TYPE BIGINT;

-- CreateIndex
CREATE INDEX "social_media_posts_report_id_posted_at_id_idx" ON "social_media_posts"("report_id", "posted_at" DESC, "id");

-- CreateIndex
CREATE UNIQUE INDEX "social_media_posts_report_id_platform_external_id_key" ON "social_media_posts"("report_id", "platform", "external_id");
