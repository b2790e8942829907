-- AlterTable
ALTER TABLE "webhook_events" ADD COLUMN     "seq" BIGINT;

-- CreateIndex
CREATE INDEX "webhook_events_team_id_seq_idx" ON "webhook_events"("team_id", "seq");

-- Hand-written: the live streams' order (docs/api.md "Live updates"). Every event gets the next number of one
-- sequence from a BEFORE INSERT trigger that first takes the team's team_versions row (the row every change of the
-- team's data locks until it commits; migration *_trusted_documents_http_cache). Two transactions of one team that
-- record events therefore number them one after the other and commit in that order, so a reader that has seen the
-- team's event n has seen every earlier one: a stream resumes after n (Last-Event-ID) without a gap.
CREATE SEQUENCE "webhook_events_seq";

UPDATE "webhook_events" e SET "seq" = numbered.n
FROM (SELECT "id", nextval('webhook_events_seq') AS n FROM (SELECT "id" FROM "webhook_events" ORDER BY "created_at", "id") o) numbered
WHERE e."id" = numbered."id";

CREATE FUNCTION "prs_number_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "team_versions" AS v ("team_id", "version") VALUES (NEW."team_id", 1)
    ON CONFLICT ("team_id") DO UPDATE SET "version" = v."version" + 1;
  NEW."seq" := nextval('webhook_events_seq');
  RETURN NEW;
END
$$;

CREATE TRIGGER "webhook_events_number" BEFORE INSERT ON "webhook_events" FOR EACH ROW EXECUTE FUNCTION "prs_number_event"();
