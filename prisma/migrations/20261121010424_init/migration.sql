-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateEnum
CREATE TYPE "ReportStatus" AS ENUM ('draft', 'published');

-- CreateEnum
CREATE TYPE "ShowingEventType" AS ENUM ('showing', 'open_house');

-- CreateTable
CREATE TABLE "teams" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "admin_name" TEXT NOT NULL,
    "plan" TEXT NOT NULL DEFAULT 'standard',
    "subscription_status" TEXT NOT NULL DEFAULT 'active',
    "member_count" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "teams_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "team_usage" (
    "team_id" UUID NOT NULL,
    "month" DATE NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "team_usage_pkey" PRIMARY KEY ("team_id","month")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "key_hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "permissions" JSONB NOT NULL,
    "rate_limit_tier" TEXT NOT NULL DEFAULT 'standard',
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reports" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "address" TEXT NOT NULL,
    "city" TEXT,
    "state" TEXT,
    "zip" TEXT,
    "address_key" TEXT NOT NULL,
    "search_key" TEXT NOT NULL,
    "price" DOUBLE PRECISION,
    "beds" INTEGER,
    "baths" DOUBLE PRECISION,
    "sqft" INTEGER,
    "year_built" INTEGER,
    "property_type" TEXT,
    "status" "ReportStatus" NOT NULL DEFAULT 'draft',
    "published_at" TIMESTAMPTZ(3),
    "views_count" INTEGER NOT NULL DEFAULT 0,
    "saves_count" INTEGER NOT NULL DEFAULT 0,
    "description" TEXT,
    "lot_size" DOUBLE PRECISION,
    "portal_url" TEXT,
    "portal_property_id" TEXT,
    "mls_id" TEXT,
    "listing_agent" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "custom_agent_name" TEXT,
    "custom_agent_email" TEXT,
    "primary_color" TEXT,
    "secondary_color" TEXT,
    "executive_summary" TEXT,
    "show_comps_on_report" BOOLEAN NOT NULL DEFAULT true,
    "show_neighborhood_on_report" BOOLEAN NOT NULL DEFAULT true,
    "show_social_on_report" BOOLEAN NOT NULL DEFAULT true,
    "show_showings_on_report" BOOLEAN NOT NULL DEFAULT true,
    "show_agent_insights_on_report" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "comparables" (
    "id" UUID NOT NULL,
    "report_id" UUID NOT NULL,
    "address" TEXT NOT NULL,
    "city" TEXT,
    "state" TEXT,
    "zip" TEXT,
    "price" DOUBLE PRECISION,
    "beds" INTEGER,
    "baths" DOUBLE PRECISION,
    "sqft" INTEGER,
    "distance_miles" DOUBLE PRECISION,
    "sale_date" TIMESTAMPTZ(3),
    "status" TEXT,
    "source" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comparables_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "showings" (
    "id" UUID NOT NULL,
    "service_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "report_id" UUID NOT NULL,
    "showing_date" TIMESTAMPTZ(3),
    "scheduled_date" TIMESTAMPTZ(3),
    "attendee_name" TEXT,
    "attendee_email" TEXT,
    "attendee_phone" TEXT,
    "agent_name" TEXT,
    "feedback" TEXT,
    "rating" INTEGER,
    "interested" BOOLEAN,
    "event_type" "ShowingEventType" NOT NULL DEFAULT 'showing',
    "title" TEXT,
    "attendees_count" INTEGER,
    "unique_showing_key" TEXT,
    "showing_time_start" TIMESTAMPTZ(3),
    "showing_time_end" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "showings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "social_media_posts" (
    "id" UUID NOT NULL,
    "report_id" UUID NOT NULL,
    "platform" TEXT NOT NULL,
    "external_id" TEXT,
    "url" TEXT,
    "caption" TEXT,
    "posted_at" TIMESTAMPTZ(3),
    "likes" INTEGER NOT NULL DEFAULT 0,
    "comments" INTEGER NOT NULL DEFAULT 0,
    "shares" INTEGER NOT NULL DEFAULT 0,
    "views" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "social_media_posts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_insights" (
    "id" UUID NOT NULL,
    "report_id" UUID NOT NULL,
    "author" TEXT NOT NULL,
    "title" TEXT,
    "body" TEXT NOT NULL,
    "category" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_insights_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_team_id_created_at_idx" ON "api_keys"("team_id", "created_at");

-- CreateIndex
CREATE INDEX "api_keys_prefix_idx" ON "api_keys"("prefix");

-- CreateIndex
CREATE INDEX "reports_team_id_created_at_id_idx" ON "reports"("team_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "reports_team_id_status_created_at_id_idx" ON "reports"("team_id", "status", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "reports_search_key_trgm_idx" ON "reports" USING GIN ("search_key" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "comparables_report_id_created_at_idx" ON "comparables"("report_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "showings_service_id_key" ON "showings"("service_id");

-- CreateIndex
CREATE INDEX "showings_report_id_created_at_idx" ON "showings"("report_id", "created_at");

-- CreateIndex
CREATE INDEX "showings_team_id_created_at_id_idx" ON "showings"("team_id", "created_at" DESC, "id");

-- CreateIndex
CREATE UNIQUE INDEX "showings_team_id_unique_showing_key_key" ON "showings"("team_id", "unique_showing_key");

-- CreateIndex
CREATE INDEX "social_media_posts_report_id_created_at_idx" ON "social_media_posts"("report_id", "created_at");

-- CreateIndex
CREATE INDEX "agent_insights_report_id_created_at_idx" ON "agent_insights"("report_id", "created_at");

-- AddForeignKey
ALTER TABLE "team_usage" ADD CONSTRAINT "team_usage_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reports" ADD CONSTRAINT "reports_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comparables" ADD CONSTRAINT "comparables_report_id_fkey" FOREIGN KEY ("report_id") REFERENCES "reports"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "showings" ADD CONSTRAINT "showings_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "showings" ADD CONSTRAINT "showings_report_id_fkey" FOREIGN KEY ("report_id") REFERENCES "reports"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "social_media_posts" ADD CONSTRAINT "social_media_posts_report_id_fkey" FOREIGN KEY ("report_id") REFERENCES "reports"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_insights" ADD CONSTRAINT "agent_insights_report_id_fkey" FOREIGN KEY ("report_id") REFERENCES "reports"("id") ON DELETE CASCADE ON UPDATE CASCADE;
