import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, idColumn, time } from "./columns";
import { companies } from "./companies";
import { users } from "./users";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: idColumn(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id),
    name: text("name").notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    hash: text("hash").notNull(),
    /** The first characters of the key, shown in lists so people can tell keys apart. */
    displayPrefix: text("display_prefix").notNull(),
    createdByUserId: text("created_by_user_id").references(() => users.id),
    createdAt: createdAt(),
    lastUsedAt: time("last_used_at"),
    revokedAt: time("revoked_at"),
  },
  (table) => [uniqueIndex("api_keys_hash_key").on(table.hash), index("api_keys_company_idx").on(table.companyId, table.createdAt)],
);
