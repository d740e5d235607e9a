import { sql } from "drizzle-orm";
import { bigint, pgTable, text } from "drizzle-orm/pg-core";
import { time } from "./columns";
import { companies } from "./companies";

/**
 * How far each company's history has been turned into webhook messages: every
 * event at or before (tx_id, seq) has been fanned out. Fan-out reads the
 * history in the order GET /v1/events does and moves this in the same
 * transaction as the messages it wrote; its row lock makes runs for one
 * company take turns, whatever order or concurrency their jobs run in.
 */
export const fanOutPositions = pgTable("fan_out_positions", {
  companyId: text("company_id")
    .primaryKey()
    .references(() => companies.id, { onDelete: "cascade" }),
  txId: bigint("tx_id", { mode: "bigint" }).notNull().default(sql`0`),
  seq: bigint("seq", { mode: "bigint" }).notNull().default(sql`0`),
  updatedAt: time("updated_at").notNull().defaultNow(),
});
