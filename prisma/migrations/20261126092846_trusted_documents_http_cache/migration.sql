-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "trusted_documents_only" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "graphql_documents" (
    "team_id" UUID NOT NULL,
    "hash" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "graphql_documents_pkey" PRIMARY KEY ("team_id","hash")
);

-- CreateTable
CREATE TABLE "team_versions" (
    "team_id" UUID NOT NULL,
    "version" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "team_versions_pkey" PRIMARY KEY ("team_id")
);

-- AddForeignKey
ALTER TABLE "graphql_documents" ADD CONSTRAINT "graphql_documents_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: every statement that changes a team's rows that answers are built from bumps that team's version in
-- its own transaction (src/http/http-cache.ts: the version is part of every ETag and cached answer's key, so a
-- change committed by any process makes older ones unreachable on the next request). Statement-level with transition
-- tables: one upsert per statement and team, teams taken in id order so statements touching several teams (the
-- webhook worker's) lock their version rows in one order. Usage counters and api_keys are not tracked: answers that
-- show them are not cached (auth runs before the cache, so a revoked key is refused).
CREATE FUNCTION "prs_bump_team_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "team_versions" SET "version" = "version" + 1;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO "team_versions" AS v ("team_id", "version")
      SELECT DISTINCT "team_id", 1 FROM new_rows ORDER BY "team_id"
      ON CONFLICT ("team_id") DO UPDATE SET "version" = v."version" + 1;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "team_versions" AS v ("team_id", "version")
      SELECT "team_id", 1 FROM (SELECT "team_id" FROM new_rows UNION SELECT "team_id" FROM old_rows) t ORDER BY "team_id"
      ON CONFLICT ("team_id") DO UPDATE SET "version" = v."version" + 1;
  ELSE
    INSERT INTO "team_versions" AS v ("team_id", "version")
      SELECT DISTINCT "team_id", 1 FROM old_rows ORDER BY "team_id"
      ON CONFLICT ("team_id") DO UPDATE SET "version" = v."version" + 1;
  END IF;
  RETURN NULL;
END
$$;

-- Attaches the version triggers to a table with a team_id column; a later migration adding such a table calls it.
CREATE FUNCTION "prs_track_team_version"(tbl regclass) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  name text := (SELECT relname FROM pg_class WHERE oid = tbl);
BEGIN
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %s REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "prs_bump_team_version"()', name || '_version_insert', tbl);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %s REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "prs_bump_team_version"()', name || '_version_update', tbl);
  EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %s REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "prs_bump_team_version"()', name || '_version_delete', tbl);
  EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION "prs_bump_team_version"()', name || '_version_truncate', tbl);
END
$$;

SELECT "prs_track_team_version"(t::regclass)
FROM unnest(ARRAY['reports', 'showings', 'comparables', 'agent_insights', 'social_media_posts', 'webhook_endpoints',
  'webhook_events', 'webhook_deliveries', 'share_links']) AS t
WHERE to_regclass(t) IS NOT NULL;
