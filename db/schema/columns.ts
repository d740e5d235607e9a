import { customType, text, timestamp } from "drizzle-orm/pg-core";

/** A prefixed text id (see server/ids.ts) used as primary key. */
export const idColumn = () => text("id").primaryKey();

/**
 * The id of a row of a table partitioned by time (db/partitions.ts): its
 * primary key is (id, partition column), since PostgreSQL only enforces
 * uniqueness across partitions with the partition key in it. Ids are random
 * (server/ids.ts), so the id alone stays unique in practice.
 */
export const partitionedIdColumn = () => text("id").notNull();

/**
 * Every time is an exact instant with millisecond precision, the precision of
 * the JavaScript dates the domain writes: list cursors compare them exactly.
 */
export const time = (name: string) => timestamp(name, { withTimezone: true, mode: "date", precision: 3 });

export const createdAt = () => time("created_at").notNull().defaultNow();

export const companyId = () => text("company_id").notNull();

/**
 * A JSON text kept byte for byte, as a jsonb string (a jsonb object would
 * reorder its keys; `column #>> '{}'` reads the text in SQL). Read, it is
 * that text: drizzle's own jsonb would parse it a second time, after the
 * driver, into an object.
 */
export const jsonText = customType<{ data: string; driverData: string }>({
  dataType: () => "jsonb",
  toDriver: (text) => JSON.stringify(text),
});
