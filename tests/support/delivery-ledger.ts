/**
 * What the fault runs share: candidates written as a company's interviews
 * would produce them, a receiver that keeps a ledger of what it accepted,
 * and the ledger's reckoning against the company's history: messages lost
 * (must be none), duplicate deliveries (allowed: delivery is at least once),
 * and candidates whose messages were first accepted out of history order
 * (must be none).
 */
import type postgres from "postgres";
import { submitAttempt } from "@/server/domain/attempts";
import type { DomainContext } from "@/server/domain/context";
import { changeStatus } from "@/server/domain/statuses";
import { readEventPage } from "@/server/read/events";
import { completeSteps, type makeInterview, scoreAndRecord, startCandidate } from "./fixtures";
import type { Receiver } from "./receiver";

type Random = { chance: (p: number) => boolean; int: (min: number, max: number) => number };

export const eventsPerCandidate = 4;

/**
 * The receiver accepts each (webhook path, event) and notes the first
 * acceptance; about one first try in twenty is refused with a 503 (at most
 * once per chain, so a refusal holds its chain only for the first retry's
 * minute).
 */
export function keepLedger(receiver: Receiver, refusals: Random) {
  const accepted: Array<{ hook: string; eventId: string; candidateId: string; at: number }> = [];
  const seen = new Set<string>();
  const refusedChains = new Set<string>();
  const mismatchedIds: string[] = [];
  let duplicates = 0;
  receiver.received.length = 0;
  receiver.answer((request) => {
    const body = JSON.parse(request.body) as { id: string; candidate: { id: string } };
    if (request.headers["service-event-id"] !== body.id) mismatchedIds.push(body.id);
    const key = `${request.path}|${body.id}`;
    const chain = `${request.path}|${body.candidate.id}`;
    const firstTry = request.headers["service-delivery-attempt"] === "1";
    if (firstTry && !seen.has(key) && !refusedChains.has(chain) && refusals.chance(1 / 20)) {
      refusedChains.add(chain);
      return { status: 503 };
    }
    if (seen.has(key)) duplicates++;
    else {
      seen.add(key);
      accepted.push({ hook: request.path, eventId: body.id, candidateId: body.candidate.id, at: request.at });
    }
    return { status: 200, delayMs: refusals.int(0, 40) };
  });
  return { accepted, mismatchedIds, duplicates: () => duplicates };
}

/**
 * `count` candidates submitted, scored and decided by `writers` writers at
 * once, each a few hundred milliseconds after the last. `gate` is awaited
 * before each candidate (a test pauses writing with it).
 */
export async function writeCandidates(
  ctx: DomainContext,
  interview: Awaited<ReturnType<typeof makeInterview>>,
  options: { count: number; writers: number; pacing: Random; tag: string; gate?: () => Promise<void>; onWriting?: (delta: 1 | -1) => void },
) {
  let written = 0;
  const write = async (writer: number) => {
    for (let index = writer; index < options.count; index += options.writers) {
      await options.gate?.();
      options.onWriting?.(1);
      const candidate = await startCandidate(ctx, interview.id, { email: `c${index}-${options.tag}@example.com` });
      await completeSteps(ctx, interview, candidate.id);
      await scoreAndRecord(ctx, candidate.id, 40 + (index % 50));
      await submitAttempt(ctx, candidate.id);
      await changeStatus(ctx, candidate.id, { to: index % 2 ? "shortlisted" : "rejected", by: { type: "team", name: "Ana" } });
      options.onWriting?.(-1);
      written++;
      await new Promise((resolve) => setTimeout(resolve, options.pacing.int(100, 500)));
    }
  };
  await Promise.all(Array.from({ length: options.writers }, (_, writer) => write(writer)));
  return written;
}

/** The company's history, in the order of GET /v1/events. */
export async function historyOf(sql: postgres.Sql, companyId: string) {
  const history: Array<{ id: string; candidateId: string }> = [];
  for (let after: Parameters<typeof readEventPage>[2]["after"]; ; ) {
    const page = await readEventPage(sql, companyId, { limit: 100, after });
    history.push(...page.events.map((event) => ({ id: event.id, candidateId: event.candidate.id })));
    if (!page.hasMore) break;
    after = page.next;
  }
  return history;
}

/** Waits until the ledger holds `expected` first acceptances, or `withinMs` has passed since `since`; the seconds it took. */
export async function awaitAcceptances(ledger: ReturnType<typeof keepLedger>, expected: number, since: number, withinMs: number) {
  while (ledger.accepted.length < expected && Date.now() < since + withinMs) await new Promise((resolve) => setTimeout(resolve, 500));
  return Math.round((Date.now() - since) / 1000);
}

export type Reckoning = { expected: number; lost: number; duplicates: number; duplicatesPer1000: number; outOfOrder: string[] };

/** The ledger against the history, for each of the webhooks (receiver paths starting with `hookPaths`). */
export function reckon(history: Array<{ id: string; candidateId: string }>, ledger: ReturnType<typeof keepLedger>, hookPaths: string[]): Reckoning {
  const expected = history.length * hookPaths.length;
  const historyOrder = new Map(history.map((event, index) => [event.id, index]));
  const outOfOrder: string[] = [];
  for (const hookPath of hookPaths) {
    const byCandidate = new Map<string, number[]>();
    for (const entry of ledger.accepted.filter((a) => a.hook.startsWith(hookPath))) {
      byCandidate.set(entry.candidateId, [...(byCandidate.get(entry.candidateId) ?? []), historyOrder.get(entry.eventId)!]);
    }
    for (const [candidateId, order] of byCandidate) {
      if (order.some((position, index) => index > 0 && position < order[index - 1]!)) outOfOrder.push(`${hookPath} ${candidateId}`);
    }
  }
  const duplicates = ledger.duplicates();
  return { expected, lost: expected - ledger.accepted.length, duplicates, duplicatesPer1000: Math.round((duplicates / expected) * 1000 * 10) / 10, outOfOrder };
}

export function printReckoning(label: string, seed: number, reckoning: Reckoning) {
  console.log(
    `${label}: seed ${seed}: ledger: ${reckoning.expected} messages expected, lost ${reckoning.lost}, duplicate deliveries ${reckoning.duplicates} (${reckoning.duplicatesPer1000} per 1,000), candidates out of order ${reckoning.outOfOrder.length}`,
  );
}
