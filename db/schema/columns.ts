import { text, timestamp } from "drizzle-orm/pg-core";

/** A prefixed text id (see server/ids.ts) used as primary key. */
export const idColumn = () => text("id").primaryKey();

/**
 * Every time is an exact instant with millisecond precision, the precision of
 * the JavaScript dates the domain writes: list cursors compare them exactly.
 */
export const time = (name: string) => timestamp(name, { withTimezone: true, mode: "date", precision: 3 });

export const createdAt = () => time("created_at").notNull().defaultNow();

export const companyId = () => text("company_id").notNull();
