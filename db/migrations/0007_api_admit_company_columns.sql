-- api_admit names the key's company `company_*`, as everything else does
-- (it said `account_*`). A function's result columns cannot be renamed in
-- place, so it is dropped and created again; the body is unchanged.
DROP FUNCTION api_admit(text, integer, integer);
--> statement-breakpoint
-- No row: unknown or revoked key. Otherwise the key, its company, and the
-- state of the tighter of the two buckets (per key first, then per company).
CREATE FUNCTION api_admit(p_hash text, p_default_key_limit integer, p_default_company_limit integer)
RETURNS TABLE (
  api_key_id text, api_key_name text, company_id text, company_name text, company_suspended boolean,
  allowed boolean, rate_limit integer, remaining integer, reset_ms integer
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  k record;
  now_ts timestamptz := clock_timestamp();
  key_take record;
  company_take record;
  chosen_limit integer;
  chosen_tat timestamptz;
BEGIN
  -- Buckets are unlogged and last_used_at is advisory: the commit need not
  -- wait for the WAL flush while it holds the hot bucket rows.
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT ak.id, ak.name, ak.company_id, ak.last_used_at, c.name AS company_name,
         c.suspended_at IS NOT NULL AS suspended,
         coalesce(c.rate_limit_per_key, p_default_key_limit) AS key_limit,
         coalesce(c.rate_limit_per_company, p_default_company_limit) AS company_limit
    INTO k
    FROM api_keys ak JOIN companies c ON c.id = ak.company_id
   WHERE ak.hash = p_hash AND ak.revoked_at IS NULL;
  IF NOT FOUND THEN RETURN; END IF;

  -- last_used_at is kept to the minute, so most requests write nothing.
  IF k.last_used_at IS NULL OR k.last_used_at < now_ts - interval '1 minute' THEN
    UPDATE api_keys SET last_used_at = now_ts WHERE id = k.id;
  END IF;

  api_key_id := k.id; api_key_name := k.name; company_id := k.company_id;
  company_name := k.company_name; company_suspended := k.suspended;
  IF k.suspended THEN
    allowed := false;
    RETURN NEXT;
    RETURN;
  END IF;

  key_take := api_rate_take('key:' || k.id, k.key_limit, now_ts);
  IF key_take.allowed THEN
    company_take := api_rate_take('company:' || k.company_id, k.company_limit, now_ts);
  END IF;

  IF NOT key_take.allowed THEN
    allowed := false; chosen_limit := k.key_limit; chosen_tat := key_take.tat;
  ELSIF NOT company_take.allowed THEN
    -- A request the company's limit refuses does not use up the key's own quota.
    UPDATE api_rate_limits SET tat = tat - interval '60 seconds' / k.key_limit WHERE bucket = 'key:' || k.id;
    allowed := false; chosen_limit := k.company_limit; chosen_tat := company_take.tat;
  ELSE
    allowed := true;
    -- Report the bucket with fewer requests left.
    IF api_rate_left(key_take.tat, k.key_limit, now_ts) <= api_rate_left(company_take.tat, k.company_limit, now_ts) THEN
      chosen_limit := k.key_limit; chosen_tat := key_take.tat;
    ELSE
      chosen_limit := k.company_limit; chosen_tat := company_take.tat;
    END IF;
  END IF;

  rate_limit := chosen_limit;
  remaining := api_rate_left(chosen_tat, chosen_limit, now_ts);
  -- Allowed: when the bucket is empty again. Refused: when one more request fits.
  reset_ms := CASE WHEN allowed
    THEN greatest(0, ceil(extract(epoch FROM (chosen_tat - now_ts)) * 1000))
    ELSE greatest(1, ceil(extract(epoch FROM (chosen_tat + interval '60 seconds' / chosen_limit - interval '60 seconds' - now_ts)) * 1000))
  END;
  RETURN NEXT;
END $$;
