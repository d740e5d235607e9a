import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, idColumn, time } from "./columns";

export const companies = pgTable("companies", {
  id: idColumn(),
  name: text("name").notNull(),
  /** Set while the account is suspended: every API call and sign-in is refused. */
  suspendedAt: time("suspended_at"),
  /** Per-company overrides of the API rate limits; null uses the configured default. */
  rateLimitPerKey: integer("rate_limit_per_key"),
  rateLimitPerCompany: integer("rate_limit_per_company"),
  createdAt: createdAt(),
});
