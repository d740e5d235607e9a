/**
 * A ready row parked by a resend: its message was claimed, then made held (a
 * resend of an older event went before it), and its lease ran out (its
 * worker died). The row stays, so that a worker that was only slow can still
 * record its outcome (which needs the same `leased_at`), but it waits for
 * its chain to make the message head again, as held messages do: the claim
 * skips it, and nothing counts it as due (the oldest-due gauge, a rate
 * limit's "held back"). Read only for rows that were leased, so an ordinary
 * claim makes no extra read. For a ready row aliased `r`.
 */
export const parkedLease =
  "(r.leased_at is not null and exists (select from webhook_messages m where m.id = r.message_id and m.history_at = r.history_at and m.held))";
