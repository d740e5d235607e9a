/** A company's API keys as the settings list shows them: never the key, only its display prefix. */
import type postgres from "postgres";

export type ApiKeySummary = {
  id: string;
  name: string;
  displayPrefix: string;
  createdAt: string;
  createdBy: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

export async function listApiKeys(sql: postgres.Sql, companyId: string): Promise<ApiKeySummary[]> {
  const rows = await sql<
    Array<{ id: string; name: string; display_prefix: string; created_at: Date; created_by: string | null; last_used_at: Date | null; revoked_at: Date | null }>
  >`
    select k.id, k.name, k.display_prefix, k.created_at, u.name as created_by, k.last_used_at, k.revoked_at
    from api_keys k left join users u on u.id = k.created_by_user_id
    where k.company_id = ${companyId}
    order by k.revoked_at is not null, k.created_at desc, k.id desc`;
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    displayPrefix: row.display_prefix,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
  }));
}
