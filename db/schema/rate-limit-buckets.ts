/**
 * `api_rate_limits` and its functions exist in SQL only, so this file names
 * them where the other tables are declared. A drizzle declaration would not
 * match: the table is UNLOGGED (losing it in a crash forgives at most a minute
 * of use), which drizzle cannot declare, and drizzle-kit would then want to
 * create it again.
 *
 * - `api_rate_limits (bucket text primary key, tat timestamptz)`: one GCRA
 *   bucket per name, holding its "theoretical arrival time". Names: `key:<id>`
 *   and `company:<id>` for the API, `sign-in:<email>` for password guesses.
 * - `api_rate_take(bucket, limit per minute, now)` → `(allowed, tat)`: takes
 *   one request in a single INSERT … ON CONFLICT, so concurrent requests
 *   cannot both take the last one.
 * - `api_rate_left(tat, limit per minute, now)` → requests the bucket can still take.
 * - `api_admit(key hash, default key limit, default company limit)`: the API's
 *   key check and both of its buckets in one round trip.
 *
 * Defined in the baseline migration (db/migrations/0000_baseline.sql).
 * Sign-in and the hourly clean-up use them through
 * server/security/rate-limit-buckets.ts; the API's admission calls `api_admit`.
 */
