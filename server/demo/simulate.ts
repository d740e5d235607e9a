/**
 * Fills a company with realistic activity through the domain write path.
 * - history (default): two weeks of candidates, played in time order so the
 *   event history is recorded in the order it happened;
 * - live: keeps producing new candidates in real time until stopped;
 * - bulk (`bulk: true`, or when history would cost more than its budget of
 *   write transactions): batched inserts through the same rules, for
 *   benchmarks at up to millions of candidates.
 * The seed decides everything that happens; ids stay random so runs with the
 * same seed can share a database.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { databaseUnavailability, whileUnavailable } from "@/db/availability";
import { companies, events, interviews, users } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { notFound } from "@/server/domain/errors";
import { createInterview, type LoadedInterview, loadInterview, pauseInterview, publishInterview } from "@/server/domain/interviews";
import { bulkSimulate } from "./bulk";
import { interviewTemplates } from "./catalog";
import { planJourney, type Step, scenarios } from "./journeys";
import { createRandom, type Random } from "./random";

export type SimulateOptions = {
  companyId: string;
  interviews?: number;
  candidates?: number;
  seed?: number;
  bulk?: boolean;
  /** Defaults to the real time; the history ends here. */
  now?: Date;
  /** Called with the number of candidates done so far, after each one (history) or each batch (bulk). */
  onProgress?: (done: number) => void;
};

/**
 * History writes one transaction per step, about 7 per candidate and some
 * milliseconds each, where bulk writes 5,000 candidates per transaction. The
 * planned steps are its exact cost: above this many (about ten seconds, some
 * 400 candidates) bulk is used instead.
 */
export const historyStepBudget = 3_000;
const day = 24 * 60 * 60 * 1000;

export async function simulate(base: DomainContext, options: SimulateOptions) {
  const random = createRandom(options.seed ?? Date.now());
  const now = (options.now ?? base.clock.now()).getTime();
  const ctx: DomainContext = { ...base, clock: { now: () => new Date(now) } };
  const candidateCount = options.candidates ?? 50;
  const before = await countEvents(ctx, options.companyId);
  const interviewList = await prepareInterviews(ctx, options.companyId, options.interviews ?? 3, now - 15 * day);

  const journeys = options.bulk ? null : planHistory(random, interviewList, await someUser(ctx, options.companyId), candidateCount, now);
  if (!journeys) {
    const made = await bulkSimulate(ctx, { interviews: interviewList, candidates: candidateCount, random, now, onProgress: options.onProgress });
    return { mode: "bulk" as const, interviews: interviewList.length, ...made, events: (await countEvents(ctx, options.companyId)) - before };
  }

  // A candidate is done once its last step has been played.
  let done = 0;
  const steps = journeys.flatMap((journey) => {
    const last = journey.at(-1)!;
    const counted: Step = {
      ...last,
      run: async (stepCtx) => {
        await last.run(stepCtx);
        options.onProgress?.(++done);
      },
    };
    return [...journey.slice(0, -1), counted];
  });
  const played = await playInOrder(ctx, steps);
  if (interviewList.length >= 3) await pauseInterview({ ...ctx, clock: { now: () => new Date(now) } }, interviewList.at(-1)!.id);
  return {
    mode: "history" as const,
    interviews: interviewList.length,
    candidates: candidateCount,
    steps: played,
    events: (await countEvents(ctx, options.companyId)) - before,
  };
}

/** Each candidate's steps up to `now`, or null as soon as they exceed the history's budget. */
function planHistory(random: Random, interviewList: LoadedInterview[], previewUserId: string | null, count: number, now: number): Step[][] | null {
  const journeys: Step[][] = [];
  let planned = 0;
  for (let index = 0; index < count; index++) {
    const journey = planJourney(
      { random, interview: random.pick(interviewList), previewUserId, pace: 1 },
      random.weighted(scenarios),
      // Some recent candidates, so there is work in flight: late recordings, unscored interviews.
      now - random.next() * (random.chance(0.15) ? 2 : 14) * day,
    ).filter((step) => step.at <= now);
    planned += journey.length;
    if (planned > historyStepBudget) return null;
    journeys.push(journey);
  }
  return journeys;
}

/** Plays steps in time order, each at its own time on the clock. */
async function playInOrder(base: DomainContext, steps: Step[]) {
  let current = 0;
  const ctx: DomainContext = { ...base, clock: { now: () => new Date(current) } };
  for (const step of steps.sort((a, b) => a.at - b.at)) {
    current = step.at;
    await step.run(ctx);
  }
  return steps.length;
}

/** Creates `count` active interviews from the templates; with 0, uses the company's active ones. */
async function prepareInterviews(ctx: DomainContext, companyId: string, count: number, createdAt: number): Promise<LoadedInterview[]> {
  const [company] = await ctx.db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  if (!company) throw notFound("company", companyId);
  if (count === 0) {
    const existing = await ctx.db
      .select({ id: interviews.id })
      .from(interviews)
      .where(and(eq(interviews.companyId, companyId), eq(interviews.status, "active"), isNull(interviews.deletedAt)));
    if (existing.length === 0) throw new Error("The company has no active interviews; pass --interviews N.");
    return Promise.all(existing.map((row) => loadInterview(ctx.db, row.id)));
  }
  const at: DomainContext = { ...ctx, clock: { now: () => new Date(createdAt) } };
  const made: LoadedInterview[] = [];
  for (let index = 0; index < count; index++) {
    const { sampleAnswers: _answers, aiQuestions: _questions, ...template } = interviewTemplates[index % interviewTemplates.length]!;
    const { id } = await createInterview(at, companyId, template);
    await publishInterview(at, id);
    made.push(await loadInterview(ctx.db, id));
  }
  return made;
}

async function someUser(ctx: DomainContext, companyId: string) {
  const [user] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.companyId, companyId)).limit(1);
  return user?.id ?? null;
}

async function countEvents(ctx: DomainContext, companyId: string) {
  const [row] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(events).where(eq(events.companyId, companyId));
  return row?.total ?? 0;
}

/** How long a live step waits for a database that refuses or cannot take a connection (restarting, failing over). */
const liveOutageWaitMs = 10 * 60_000;

/**
 * The live demo: a new candidate every few seconds, each moving through its
 * steps at about two minutes per hour of real life, until `signal` aborts. A database
 * restart or failover does not end it: a step refused a connection waits and
 * runs when the database answers (`onWait` hears why); a step whose
 * connection was lost mid-way may or may not have happened, so the rest of
 * its candidate's journey is dropped (`onCutOff`) and the others go on.
 */
export async function simulateLive(
  ctx: DomainContext,
  options: {
    companyId: string;
    seed?: number;
    signal: AbortSignal;
    onStep?: (step: Step) => void;
    onWait?: (reason: string) => void;
    onCutOff?: (step: Step) => void;
  },
) {
  const random: Random = createRandom(options.seed ?? Date.now());
  const interviewList = await prepareInterviews(ctx, options.companyId, 0, Date.now()).catch(() => prepareInterviews(ctx, options.companyId, 2, Date.now()));
  const previewUserId = await someUser(ctx, options.companyId);
  let pending: Step[] = [];
  const journeyOf = new Map<Step, Step[]>();
  let started = 0;
  while (!options.signal.aborted) {
    if (pending.length === 0 || random.chance(0.3)) {
      const journey = planJourney({ random, interview: random.pick(interviewList), previewUserId, pace: 1 / 30 }, random.weighted(scenarios), Date.now());
      for (const step of journey) journeyOf.set(step, journey);
      pending.push(...journey);
      pending.sort((a, b) => a.at - b.at);
      started++;
    }
    while (pending.length > 0 && pending[0]!.at <= Date.now()) {
      const step = pending.shift()!;
      const journey = journeyOf.get(step)!;
      journeyOf.delete(step);
      try {
        await whileUnavailable(
          () => step.run(ctx),
          liveOutageWaitMs,
          (unavailable) => options.onWait?.(unavailable.reason),
        );
        options.onStep?.(step);
      } catch (error) {
        if (!databaseUnavailability(error)) throw error;
        for (const later of journey) journeyOf.delete(later);
        pending = pending.filter((later) => !journey.includes(later));
        options.onCutOff?.(step);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return { candidates: started };
}
