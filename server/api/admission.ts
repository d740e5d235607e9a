/**
 * Who is calling the API, and may they: one database round trip (the
 * `api_admit` function) checks the key, the company and both rate limits.
 */
import type postgres from "postgres";
import { hashApiKey, looksLikeApiKey } from "@/server/auth/api-key-format";
import { env } from "@/server/env";
import { ApiError } from "./errors";
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

export async function admit(sql: postgres.Sql, authorization: string | null): Promise<ApiCaller> {
  // The scheme name is case-insensitive (RFC 7235 §2.1) and followed by one or
  // more spaces (RFC 6750 §2.1); the key itself must match exactly.
  const match = /^Bearer +(\S+)$/i.exec(authorization?.trim() ?? "");
  if (!match || !looksLikeApiKey(match[1]!)) throw invalidKey();
  const [row] = await sql<AdmitRow[]>`
    select * from api_admit(${hashApiKey(match[1]!)}, ${env.RATE_LIMIT_PER_KEY}, ${env.RATE_LIMIT_PER_COMPANY})`;
  if (!row) throw invalidKey();
  if (row.company_suspended) {
    throw new ApiError("permission_denied", "This company account is suspended. Contact the service operator.");
  }
  const rateLimit = { limit: row.rate_limit!, remaining: row.remaining!, resetSeconds: Math.ceil(row.reset_ms! / 1000) };
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
