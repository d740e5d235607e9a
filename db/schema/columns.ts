import { text, timestamp } from "drizzle-orm/pg-core";

/** A prefixed text id (see server/ids.ts) used as primary key. */
export const idColumn = () => text("id").primaryKey();

/** Every time is stored with its zone so it reads back as an exact instant. */
export const time = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const createdAt = () => time("created_at").notNull().defaultNow();

export const companyId = () => text("company_id").notNull();
