/**
 * Who is calling the API, and may they. `api_admit` (SQL) checks the key by
 * its hash, the company's suspension and both rate limits; nothing about keys
 * or companies is kept between requests, so a revoked key or a suspended
 * company is refused on the very next request.
 *
 * A request is one statement. `admit()` runs `api_admit` alone (for /me, and
 * when the query string is refused, so that 401, 403 and 429 still come
 * before 422). `admitWith(page)` runs the page's query in the same statement:
 *
 *   with preview as materialized (api_admission_preview: key, company, "may well be admitted")
 *      , page as materialized (the page, read only when the preview says so, for the key's company)
 *   select api_admit(...), page ... (api_admit takes its arguments from the page's row, so it runs last)
 *
 * Deciding last keeps the two bucket rows that `api_admit` updates locked only
 * until the commit right after it, not while the page is read (every request
 * of a key, and of a company, goes through the same two rows). `api_admit`'s
 * answer is the one that counts: a page read for a request it refuses is
 * dropped, and a request it admits whose page was not read (a bucket refilled
 * between the preview and the decision) reads it in a second statement.
 */
import type postgres from "postgres";
import { hashApiKey, looksLikeApiKey } from "@/server/auth/api-key-format";
import { env } from "@/server/env";
import { bearerToken } from "@/server/security/bearer-token";
import { ApiError } from "./errors";
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

/** The page's query for a company: its id, or the SQL expression of the previewed caller's company. */
export type PageQuery = (company: string | postgres.Fragment) => postgres.Fragment;

const rateLimits = (sql: postgres.Sql) => sql`${env.RATE_LIMIT_PER_KEY}::integer, ${env.RATE_LIMIT_PER_COMPANY}::integer`;

/** The one statement of `admit` (exported for the query-plan tests). */
export const admitStatement = (sql: postgres.Sql, keyHash: string) => sql`select * from api_admit(${keyHash}, ${rateLimits(sql)})`;

/** The one statement of `admitWith`: preview, page, then `api_admit` (exported for the query-plan tests). */
export function admissionStatement(sql: postgres.Sql, keyHash: string, pageQuery: PageQuery, onlyForCompany?: string) {
  const limits = rateLimits(sql);
  const wanted = onlyForCompany === undefined ? sql`v.admissible` : sql`v.admissible and v.company_id = ${onlyForCompany}::text`;
  return sql`
    with preview as materialized (
      select * from api_admission_preview(${keyHash}, ${limits})
    ), page as materialized (
      select v.key_hash, v.company_id as previewed_company, ${wanted} as page_read, p.*
      from preview v
      left join lateral (${pageQuery(sql`(case when ${wanted} then v.company_id end)`)}) p on ${wanted}
    )
    select a.*, page.*
    from page cross join lateral api_admit(page.key_hash, ${limits}) a`;
}

export class Admission {
  /** True once a statement deciding admission was sent: the request is counted, and decided, once. */
  attempted = false;

  constructor(
    private readonly sql: postgres.Sql,
    private readonly keyHash: string,
    private readonly exchange: ApiExchange,
  ) {}

  /** Admission alone: one statement. */
  async admit(): Promise<ApiCaller> {
    this.attempted = true;
    const [row] = await this.sql<AdmitRow[]>`${admitStatement(this.sql, this.keyHash)}`;
    return callerFrom(row, this.exchange);
  }

  /**
   * Admission and the page's one row, in one statement. `onlyForCompany`: the
   * page is read only for this company (a cursor's); for another caller it is
   * not read (`page` is null) and the procedure refuses the cursor. The page's
   * columns come as the query gives them; a query that finds no row gives them all null.
   */
  async admitWith<Page extends object>(pageQuery: PageQuery, options: { onlyForCompany?: string } = {}): Promise<{ caller: ApiCaller; page: Page | null }> {
    this.attempted = true;
    const sql = this.sql;
    const [row] = await sql<
      Array<AdmitRow & { previewed_company: string; page_read: boolean }>
    >`${admissionStatement(sql, this.keyHash, pageQuery, options.onlyForCompany)}`;
    const caller = callerFrom(row, this.exchange);
    // The key's company never changes; this only keeps tenant isolation from depending on it.
    if (row!.previewed_company !== caller.company.id) throw new Error("The previewed caller is not the admitted one");
    if (options.onlyForCompany !== undefined && options.onlyForCompany !== caller.company.id) return { caller, page: null };
    if (row!.page_read) return { caller, page: row as unknown as Page };
    const [page] = await sql<Page[]>`${pageQuery(caller.company.id)}`;
    return { caller, page: page ?? ({} as Page) };
  }
}
