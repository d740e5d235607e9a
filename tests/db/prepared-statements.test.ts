/**
 * The delivery hot path is planned once per worker connection, not at every
 * run (db/prepared.ts): over the partitioned log, planning a statement that
 * reads it weighs every day's partition and index. On a database opened as
 * the worker opens it (`planOnce`), the claim and the queueing of messages
 * (the chains' locks, then the statement that writes the log and the queue)
 * are prepared statements whose every run uses the one generic plan.
 */
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { createDatabase, planLifetimeSeconds } from "@/db/client";
import { claimDue } from "@/server/webhooks/delivery/claim";
import { enqueueMessages } from "@/server/webhooks/delivery/queue";
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

it("runs the claim and the queueing of messages as prepared statements with one generic plan", async () => {
  const { db } = open();
  for (let run = 0; run < 7; run++) {
    await claimDue(db, new Date(), { limit: 10 });
    // A message to a webhook there is not: its chain is locked and nothing is queued, through the same statements as any message.
    const queued = await db.transaction((tx) =>
      enqueueMessages(
        tx,
        [
          {
            id: `msg_none${run}`,
            companyId: "co_none",
            webhookId: "wh_none",
            origin: "event",
            eventId: `evt_none${run}`,
            eventType: "candidate.submitted",
            candidateId: "cand_none",
            event: null,
          },
        ],
        new Date(),
      ),
    );
    expect(queued).toMatchObject({ ids: [], allowed: true });
  }
  expect(await plansOf("with recursive queued_webhooks")).toEqual([{ generic: 7, custom: 0 }]);
  expect(await plansOf("select count(case when k.space")).toEqual([{ generic: 7, custom: 0 }]);
  expect(await plansOf("with allowed as")).toEqual([{ generic: 7, custom: 0 }]);
});

// A plan made while the queue was empty reads a backlog whole (db/client.ts, planOnce): the connection that made it goes
// after its lifetime, and its successor plans again, for the sizes of the moment.
it("replaces a connection that plans once after its lifetime, and plans the claim afresh on the next", async () => {
  expect(planLifetimeSeconds).toBeLessThanOrEqual(30);
  const shortLived = createDatabase(test.url, { max: 1, planOnce: true, planLifetimeSeconds: 1 });
  try {
    const session = async () => {
      await claimDue(shortLived.db, new Date(), { limit: 10 });
      const [row] = await shortLived.db.execute<{ pid: number; generic_plans: string }>(sql`
        select pg_backend_pid() as pid, (select generic_plans::text from pg_prepared_statements where ltrim(statement, E' \n\t') like 'with recursive queued_webhooks%') as generic_plans`);
      return { pid: row!.pid, plans: Number(row!.generic_plans) };
    };
    const first = await session();
    expect((await session()).pid).toBe(first.pid);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const next = await session();
    expect(next.pid).not.toBe(first.pid);
    expect(next.plans).toBe(1);
  } finally {
    await shortLived.close();
  }
});
