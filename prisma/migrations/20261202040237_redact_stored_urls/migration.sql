-- Hand-written migration: SQL the Prisma schema does not describe.
-- URLs already stored with their credentials are redacted as new ones are (src/audit/redact.ts, the same rules):
-- the user info becomes ***@, each query value ***, a fragment #***. What held them: the audit log's webhook
-- entries (changes.url.before / .after) and webhook deliveries' error messages, which quote the URL fetch refused.
-- Events never carried an endpoint's URL. Redacting twice gives the same text, so this can run on any data.

CREATE FUNCTION "prs_redact_url"(url text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  rest text := regexp_replace(url, '^([A-Za-z][A-Za-z0-9+.-]*:[/\\]{2})[^/\\?#]*@', '\1***@');
  hash_at int := strpos(rest, '#');
  fragment text := '';
  query_at int;
  query text;
BEGIN
  IF hash_at > 0 THEN
    fragment := CASE WHEN hash_at < length(rest) THEN '#***' ELSE '#' END;
    rest := left(rest, hash_at - 1);
  END IF;
  query_at := strpos(rest, '?');
  IF query_at = 0 THEN
    RETURN rest || fragment;
  END IF;
  SELECT string_agg(CASE WHEN p = '' THEN '' WHEN strpos(p, '=') > 0 THEN split_part(p, '=', 1) || '=***' ELSE '***' END, '&' ORDER BY n)
    INTO query FROM unnest(string_to_array(substr(rest, query_at + 1), '&')) WITH ORDINALITY AS q(p, n);
  RETURN left(rest, query_at) || coalesce(query, '') || fragment;
END $$;

CREATE FUNCTION "prs_redact_urls_in"(message text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  found text;
BEGIN
  FOR found IN SELECT DISTINCT (regexp_matches(message, '[A-Za-z][A-Za-z0-9+.-]*://[^\s"''<>]+', 'g'))[1] LOOP
    message := replace(message, found, "prs_redact_url"(found));
  END LOOP;
  RETURN message;
END $$;

-- The audit log refuses every UPDATE (its trigger); this one change is let through, in the migration's transaction.
ALTER TABLE "audit_log" DISABLE TRIGGER "audit_log_append_only";
UPDATE "audit_log" SET "changes" = jsonb_set("changes", '{url}', jsonb_build_object(
    'before', CASE WHEN jsonb_typeof("changes"->'url'->'before') = 'string' THEN to_jsonb("prs_redact_url"("changes"->'url'->>'before')) ELSE "changes"->'url'->'before' END,
    'after', CASE WHEN jsonb_typeof("changes"->'url'->'after') = 'string' THEN to_jsonb("prs_redact_url"("changes"->'url'->>'after')) ELSE "changes"->'url'->'after' END))
  WHERE "target_type" = 'webhook' AND jsonb_typeof("changes"->'url') = 'object'
    AND ("changes"->'url'->>'before' ~ '[@?#]' OR "changes"->'url'->>'after' ~ '[@?#]');
ALTER TABLE "audit_log" ENABLE TRIGGER "audit_log_append_only";

UPDATE "webhook_deliveries" SET "error" = "prs_redact_urls_in"("error") WHERE "error" ~ '://';

DROP FUNCTION "prs_redact_urls_in"(text);
DROP FUNCTION "prs_redact_url"(text);
