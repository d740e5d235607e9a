-- A read-only look at what api_admit will decide, for the API's one statement
-- per request (server/api/admission.ts): the page is read first, only when this
-- says the caller may well be admitted, and api_admit decides last, so the
-- hot bucket rows it locks are held only from its update to the commit, not
-- while the page is read. api_admit's answer is the one that counts; a page
-- read for a request it then refuses is thrown away, and a request it admits
-- that this turned away (a bucket refilled in between) reads its page next.
-- No row: unknown or revoked key.
CREATE FUNCTION api_admission_preview(p_hash text, p_default_key_limit integer, p_default_company_limit integer)
RETURNS TABLE (key_hash text, company_id text, admissible boolean)
LANGUAGE sql AS $$
  SELECT p_hash, ak.company_id,
         c.suspended_at IS NULL
         AND NOT EXISTS (
           SELECT 1 FROM api_rate_limits b
            WHERE b.bucket = 'key:' || ak.id
              AND greatest(b.tat, clock_timestamp()) + interval '60 seconds' / coalesce(c.rate_limit_per_key, p_default_key_limit)
                  > clock_timestamp() + interval '60 seconds')
         AND NOT EXISTS (
           SELECT 1 FROM api_rate_limits b
            WHERE b.bucket = 'company:' || ak.company_id
              AND greatest(b.tat, clock_timestamp()) + interval '60 seconds' / coalesce(c.rate_limit_per_company, p_default_company_limit)
                  > clock_timestamp() + interval '60 seconds')
    FROM api_keys ak JOIN companies c ON c.id = ak.company_id
   WHERE ak.hash = p_hash AND ak.revoked_at IS NULL
$$;
