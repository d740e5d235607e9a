/**
 * The delivery hot path is planned once per worker connection, not at every
 * run (db/prepared.ts): over the partitioned history, planning the claim cost
 * more than running it. On a database opened as the worker opens it
 * (`planOnce`), the claim and the readying of chain heads are prepared
 * statements whose every run uses the one generic plan.
 */
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { createDatabase } from "@/db/client";
import { claimDue } from "@/server/webhooks/delivery/deliver";
import { readyChainHeads } from "@/server/webhooks/delivery/messages";
import { useTestDatabase } from "../support/database";

const test = useTestDatabase();
// One connection, so the session whose prepared statements are read is the one that ran them.
const worker = { current: null as ReturnType<typeof createDatabase> | null };
const open = () => (worker.current ??= createDatabase(test.url, { max: 1, planOnce: true }));
afterAll(() => worker.current?.close());

async function plansOf(statementStart: string) {
  const rows = await open().db.execute<{ generic_plans: string; custom_plans: string }>(sql`
    select generic_plans::text, custom_plans::text from pg_prepared_statements where ltrim(statement, E' \n\t') like ${`${statementStart}%`}`);
  return rows.map((row) => ({ generic: Number(row.generic_plans), custom: Number(row.custom_plans) }));
}

it("runs the claim and the readying of chain heads as prepared statements with one generic plan", async () => {
  const { db } = open();
  for (let run = 0; run < 7; run++) {
    await claimDue(db, new Date(), { limit: 10 });
    await readyChainHeads(db, [{ webhookId: "wh_none", candidateId: "cand_none" }], new Date());
  }
  expect(await plansOf("with recursive due_webhooks")).toEqual([{ generic: 7, custom: 0 }]);
  expect(await plansOf("with chains as")).toEqual([{ generic: 7, custom: 0 }]);
});
