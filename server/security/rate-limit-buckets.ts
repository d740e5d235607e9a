/**
 * Rate-limit buckets, shared by every process through PostgreSQL: one GCRA
 * bucket per name (`key:…` and `company:…` for the API, `sign-in:…` for
 * password guesses). The table `api_rate_limits` and its functions live in
 * SQL (named in db/schema/rate-limit-buckets.ts); the API takes from its two
 * buckets inside `api_admit`, in the same round trip as the key check.
 */
import type postgres from "postgres";

/** Takes one request from `bucket`, which allows `perMinute`; false when it is empty. */
export async function takeFromBucket(sql: postgres.Sql, bucket: string, perMinute: number): Promise<boolean> {
  const [rate] = await sql<Array<{ allowed: boolean }>>`select allowed from api_rate_take(${bucket}, ${perMinute}, now())`;
  return rate?.allowed ?? false;
}

/**
 * A bucket whose next allowed time has passed is full, the same as no row, so
 * it can go: this keeps sign-in buckets for made-up emails from piling up.
 */
export async function forgetSpentRateLimits(sql: postgres.Sql) {
  const forgotten = await sql`delete from api_rate_limits where tat < now()`;
  return forgotten.count;
}
