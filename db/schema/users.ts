import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, idColumn } from "./columns";
import { companies } from "./companies";

export const userRoles = ["admin", "member"] as const;
export type UserRole = (typeof userRoles)[number];

export const users = pgTable(
  "users",
  {
    id: idColumn(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id),
    email: text("email").notNull(),
    name: text("name").notNull(),
    role: text("role", { enum: userRoles }).notNull(),
    /** scrypt, see server/auth/passwords.ts */
    passwordHash: text("password_hash").notNull(),
    /** Bumped to end every session of the user at once (sessions are JWTs). */
    sessionVersion: integer("session_version").notNull().default(1),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("users_email_key").on(sql`lower(${table.email})`), index("users_company_idx").on(table.companyId)],
);
