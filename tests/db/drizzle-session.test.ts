/**
 * db/drizzle-session.ts reaches into drizzle's internals (`_.session`), which
 * only the pinned drizzle-orm guarantees: these fail when an upgrade moves
 * them, instead of the worker's prepared statements or the simulator's COPY.
 */
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { postgresConnectionOf } from "@/db/drizzle-session";
import { executePrepared } from "@/db/prepared";
import { useTestDatabase } from "../support/database";

const test = useTestDatabase();

it("finds the postgres.js connection of a database and of an open transaction, which runs in that transaction", async () => {
  const { db } = test.handle;
  expect((await postgresConnectionOf(db)`select 1 as one`)[0]).toEqual({ one: 1 });
  await db.transaction(async (tx) => {
    const [{ txid }] = [...(await tx.execute<{ txid: string }>(sql`select txid_current()::text as txid`))] as [{ txid: string }];
    expect((await postgresConnectionOf(tx)`select txid_current()::text as txid`)[0]).toEqual({ txid });
  });
});

it("runs a statement prepared, on a database and in a transaction", async () => {
  const { db } = test.handle;
  const statement = sql`select ${7}::int as seven, 'drizzle-session fence' as marker`;
  expect(await executePrepared(db, statement)).toEqual([{ seven: 7, marker: "drizzle-session fence" }]);
  await db.transaction(async (tx) => {
    expect(await executePrepared(tx, statement)).toEqual([{ seven: 7, marker: "drizzle-session fence" }]);
    const prepared = await tx.execute<{ count: number }>(
      sql`select count(*)::int as count from pg_prepared_statements where statement like '%drizzle-session fence%'`,
    );
    expect([...prepared][0]!.count).toBe(1);
  });
});
