/** A real deadlock between two transactions: the one PostgreSQL aborts is run again and succeeds. */
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { retryOnDeadlock } from "@/db/deadlocks";
import { useTestDatabase } from "../support/database";
import { makeCompany } from "../support/fixtures";

const test = useTestDatabase();

it("runs a transaction again when PostgreSQL aborts it to break a deadlock", async () => {
  const first = await makeCompany(test.ctx, "First");
  const second = await makeCompany(test.ctx, "Second");
  const lock = (tx: typeof test.ctx.db, id: string) => tx.execute(sql`select id from companies where id = ${id} for update`);
  let bothHoldOne = () => {};
  const holding = new Promise<void>((resolve) => (bothHoldOne = resolve));
  let held = 0;
  const hold = async (tx: typeof test.ctx.db, id: string) => {
    await lock(tx, id);
    if (++held === 2) bothHoldOne();
    await holding;
  };
  let tries = 0;
  const results = await Promise.allSettled([
    test.ctx.db.transaction(async (tx) => {
      await hold(tx as never, first);
      // The other one waits first, so its deadlock check fires first and it is the one aborted.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await lock(tx as never, second);
      return "plain";
    }),
    retryOnDeadlock(() =>
      test.ctx.db.transaction(async (tx) => {
        tries++;
        if (tries === 1) await hold(tx as never, second);
        await lock(tx as never, first);
        return "retried";
      }),
    ),
  ]);
  expect(results).toEqual([
    { status: "fulfilled", value: "plain" },
    { status: "fulfilled", value: "retried" },
  ]);
  expect(tries).toBe(2);
});
