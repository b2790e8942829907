-- Hand-written: a change to a team's own row (name, admin name, plan, subscription status, member count) moves the
-- team's data version like a change to its reports does (migration *_trusted_documents_http_cache): answers show it
-- (`report { team { name plan } }`, an insight's default author), so an ETag or cached answer made before it must not
-- hold after it. Statement-level with transition tables, teams taken in id order as the other version triggers do; an
-- update that changes nothing in a row moves nothing. Inserting a team needs no bump (nothing of it was answered
-- yet), and deleting one deletes its reports, whose triggers bump it.
CREATE FUNCTION "prs_bump_team_row_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "team_versions" AS v ("team_id", "version")
    SELECT n."id", 1 FROM new_rows n JOIN old_rows o ON o."id" = n."id"
    WHERE n IS DISTINCT FROM o
    ORDER BY n."id"
    ON CONFLICT ("team_id") DO UPDATE SET "version" = v."version" + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER "teams_version_update" AFTER UPDATE ON "teams" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "prs_bump_team_row_version"();
