/**
 * Who is calling the API, and may they. `api_admit` (SQL) checks the key by
 * its hash, the company's suspension and both rate limits, in one statement
 * run for every request before its procedure (the `apiProcedure` middleware,
 * ../trpc.ts), so 401, 403 and 429 come before any problem with the query and
 * every request is counted. Nothing about keys or companies is kept between
 * requests: a revoked key or a suspended company is refused on the very next
 * request.
 */
import type postgres from "postgres";
import { whileUnavailable } from "@/db/availability";
import { hashApiKey, looksLikeApiKey } from "@/server/auth/api-key-format";
import { env } from "@/server/env";
import { ApiError } from "@/server/http/api-error";
import { bearerToken } from "@/server/security/bearer-token";
import type { ApiExchange } from "./exchange";
import { type RateLimitState, rateLimitHeaders } from "./rate-limit-headers";

export type ApiCaller = {
  apiKey: { id: string; name: string };
  company: { id: string; name: string };
  rateLimit: RateLimitState;
};

type AdmitRow = {
  api_key_id: string;
  api_key_name: string;
  company_id: string;
  company_name: string;
  company_suspended: boolean;
  allowed: boolean;
  rate_limit: number | null;
  remaining: number | null;
  reset_ms: number | null;
};

const invalidKey = () => new ApiError("auth_error", "The API key is missing, invalid or revoked. Send it as `Authorization: Bearer <API key>`.");

/** The SHA-256 hash of the bearer key, or a 401 when there is no well-formed one (no database work then). */
export function bearerKeyHash(authorization: string | null): string {
  const key = bearerToken(authorization);
  if (!key || !looksLikeApiKey(key)) throw invalidKey();
  return hashApiKey(key);
}

/** The caller `api_admit` admitted, or the error it stands for. */
function callerFrom(row: AdmitRow | undefined, exchange: ApiExchange): ApiCaller {
  if (!row) throw invalidKey();
  if (row.company_suspended) {
    throw new ApiError("permission_denied", "This company account is suspended. Contact the service operator.");
  }
  const rateLimit = { limit: row.rate_limit!, remaining: row.remaining!, resetSeconds: Math.ceil(row.reset_ms! / 1000) };
  exchange.rateLimit = rateLimit;
  if (!row.allowed) {
    throw new ApiError("rate_limited", `Too many requests. Retry after ${rateLimit.resetSeconds} second(s).`, {
      headers: { "Retry-After": String(rateLimit.resetSeconds), ...rateLimitHeaders(rateLimit) },
    });
  }
  return {
    apiKey: { id: row.api_key_id, name: row.api_key_name },
    company: { id: row.company_id, name: row.company_name },
    rateLimit,
  };
}

const rateLimits = (sql: postgres.Sql) => sql`${env.RATE_LIMIT_PER_KEY}::integer, ${env.RATE_LIMIT_PER_COMPANY}::integer`;

/** The one statement of `admit` (exported for the query-plan tests). */
export const admitStatement = (sql: postgres.Sql, keyHash: string) => sql`select * from api_admit(${keyHash}, ${rateLimits(sql)})`;

/**
 * How long a request waits for a connection the database refuses or cannot
 * open yet (a pool meeting `max_connections`, a failover's last seconds)
 * before it is answered 503: well inside a client's patience.
 */
export const connectionWaitMs = 2_500;

/** Admits the request's caller, or throws the error that refuses it; the rate limit goes on the exchange either way. */
export async function admit(sql: postgres.Sql, exchange: ApiExchange): Promise<ApiCaller> {
  const keyHash = bearerKeyHash(exchange.authorization);
  // The request's first statement: a failure to connect is waited out here, and later ones are rare enough to answer 503 at once.
  const [row] = await whileUnavailable(() => sql<AdmitRow[]>`${admitStatement(sql, keyHash)}`, connectionWaitMs);
  return callerFrom(row, exchange);
}
