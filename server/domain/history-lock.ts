/**
 * The order of a company's history, and what lets its readers go without a
 * horizon. Events are read in (tx_id, seq) order, `tx_id` being the id of the
 * transaction that wrote them (events.tx_id's default, or the bulk importer's
 * copy of it). Readers (GET /v1/events in server/read/events.ts, fan-out,
 * sending past events and the maintenance catch-up in server/webhooks/) read
 * a company's visible events after a position and move the position to the
 * last one seen; nothing else holds them back.
 *
 * 1. Every transaction that writes a company's events takes that company's
 *    lock (`lockCompanyHistory`, a transaction-scoped advisory lock) before it
 *    has a transaction id: first thing in the transaction. It holds it until
 *    it commits or rolls back. Several companies are locked in one statement,
 *    in key order, so two writers cannot deadlock on them.
 * 2. PostgreSQL ends a transaction in this order (CommitTransaction and
 *    AbortTransaction in xact.c): the commit record and pg_xact, then
 *    ProcArrayEndTransaction (from here new snapshots see it as committed),
 *    then the release of its locks. So a writer's events are visible to
 *    every snapshot taken after the next writer of that company acquires the
 *    lock.
 * 3. So within a company, lock order = transaction id order = commit order:
 *    the next writer gets the lock only after the previous one ended (2), and
 *    only then its id (1); ids are handed out in increasing order.
 * 4. Hence, for any snapshot: every event of the company it can see sorts
 *    before every event of the company it cannot see yet. A reader needs no
 *    horizon: whatever commits later for the company comes after the last
 *    event it saw, so a position moved there never skips one. (Subtransactions
 *    change nothing: `pg_current_xact_id()` is the top-level id.)
 * 5. Only the company's own unfinished writers hold its history back, and
 *    only by not being visible yet; another company's writers, or any other
 *    session idle in a transaction on the server, hold nothing back.
 * 6. A transaction that already has an id when it asks for the lock would
 *    break 3: that is a programming error, and `lockCompanyHistory` throws
 *    (the transaction then rolls back). It may ask again for a lock it took
 *    in time, as the demo seed's one transaction does for each step it plays.
 *    `tests/domain/history-lock.test.ts` checks, with a trigger of its own,
 *    that every path that writes events holds the lock when it does.
 *
 * The cost: writers of one company's events take turns for the length of
 * their transactions (docs/architecture.md, "Event history order").
 */
import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";

/** The SQL text of the advisory lock key of the company whose id is the SQL expression `companyId`. */
export const historyLockKey = (companyId: string) => `hashtextextended('interview-api:history:' || ${companyId}, 0)`;

/**
 * Takes the history locks of these companies (invariant 1), in key order.
 * Throws if the transaction already had an id and did not already hold them
 * all (invariant 6).
 */
export async function lockCompanyHistory(tx: Executor, companyIds: string[]): Promise<void> {
  const ids = [...new Set(companyIds)];
  if (ids.length === 0) return;
  // The check is read (CTE `state`) before the locks are taken (the scalar
  // subquery of the select list, evaluated for `state`'s one row). Only a
  // transaction that has an id reads pg_locks, which costs more.
  const [row] = await tx.execute<{ in_order: boolean }>(sql`
    with keys as (
      select distinct ${sql.raw(historyLockKey("c.id"))} as key
      from (values ${sql.join(
        ids.map((id) => sql`(${id}::text)`),
        sql`, `,
      )}) as c(id)
    ),
    state as materialized (
      select case when pg_current_xact_id_if_assigned() is null then true
        else not exists (
          select 1 from keys k
          where not exists (
            select 1 from pg_locks l
            where l.locktype = 'advisory' and l.pid = pg_backend_pid() and l.granted and l.objsubid = 1
              and l.classid::text::bigint = (k.key >> 32) & 4294967295
              and l.objid::text::bigint = k.key & 4294967295
          )
        )
      end as in_order
    )
    select s.in_order, (select count(pg_advisory_xact_lock(o.key)) from (select key from keys order by key) o) as locked
    from state s`);
  if (!row?.in_order)
    throw new Error(
      `The history lock of ${ids.join(", ")} was asked for by a transaction that already has an id: take it first thing in the transaction (server/domain/history-lock.ts).`,
    );
}
