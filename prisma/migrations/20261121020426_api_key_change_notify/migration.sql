-- Hand-written: announces every change to what authenticates a key, so a process that caches key lookups can drop
-- the entry as the change commits (the embedded database delivers it before the writing statement returns).
-- Payload: the key's hash, or '' when the table is truncated (drop everything).
CREATE FUNCTION "prs_notify_api_key_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('prs_api_key_changed', '');
  ELSE
    PERFORM pg_notify('prs_api_key_changed', OLD."key_hash");
  END IF;
  RETURN NULL;
END
$$;

-- last_used_at and the display fields are left out: they do not change who may call.
CREATE TRIGGER "api_keys_notify_change"
  AFTER UPDATE OF "key_hash", "team_id", "permissions", "rate_limit_tier", "expires_at", "revoked_at" OR DELETE
  ON "api_keys" FOR EACH ROW EXECUTE FUNCTION "prs_notify_api_key_change"();

CREATE TRIGGER "api_keys_notify_truncate"
  AFTER TRUNCATE ON "api_keys" FOR EACH STATEMENT EXECUTE FUNCTION "prs_notify_api_key_change"();
