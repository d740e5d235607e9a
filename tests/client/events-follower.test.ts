/** The client's events follower against the real server: where it starts, that it resumes from its store, and filters. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterviewClient, type Event, fileCursorStore } from "@interview-api/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/domain/accounts";
import { useTestDatabase } from "../support/database";
import { makeCompany, makeInterview, submitCandidate } from "../support/fixtures";
import { useTestServer } from "../support/server";

const test = useTestDatabase();
const server = useTestServer(test);
const stateDir = mkdtempSync(path.join(tmpdir(), "client-follower-"));
let interview: Awaited<ReturnType<typeof makeInterview>>;
let apiKey: string;

/** A new client each time, as a restarted process would make. */
const client = () => createInterviewClient({ baseUrl: server.baseUrl, apiKey });

/** Submitted with its score and recording in: candidate.submitted, .scored and .ready, in that order. */

async function take(events: AsyncIterable<Event>, count: number): Promise<Event[]> {
  const taken: Event[] = [];
  if (count === 0) return taken;
  for await (const event of events) {
    taken.push(event);
    if (taken.length === count) break;
  }
  return taken;
}

const ids = (events: Event[]) => events.map((event) => event.id);

beforeAll(async () => {
  const companyId = await makeCompany(test.ctx, "Acme");
  apiKey = (await createApiKey(test.ctx, { companyId, name: "Follower" })).key;
  interview = await makeInterview(test.ctx, companyId);
  (await submitCandidate(test.ctx, interview, { email: "first@acme.example" })).id;
  (await submitCandidate(test.ctx, interview, { email: "second@acme.example" })).id;
});

afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

describe("events.follow", () => {
  it("starts at the oldest kept event and, restarted, resumes from its file: a page left half-read comes again", async () => {
    const history = (await client().events.page({ limit: 25 })).events;
    expect(history.map((event) => event.type)).toEqual([
      "candidate.submitted",
      "candidate.scored",
      "candidate.ready",
      "candidate.submitted",
      "candidate.scored",
      "candidate.ready",
    ]);
    const store = fileCursorStore(path.join(stateDir, "resume", "cursor"));
    const stop = new AbortController();

    const first = client().events.follow({ store, start: "oldest", limit: 2, pollIntervalMs: 100, signal: stop.signal });
    expect(await first.start()).toBe("oldest");
    // Stops after the first event of the second page: only the first page's cursor was saved.
    expect(ids(await take(first, 3))).toEqual(ids(history.slice(0, 3)));
    expect(readFileSync(path.join(stateDir, "resume", "cursor"), "utf8").trim()).toMatch(/\S/);

    const second = client().events.follow({ store, start: "oldest", limit: 2, pollIntervalMs: 100, signal: stop.signal });
    expect(await second.start()).toBe("saved");
    const iterator = second[Symbol.asyncIterator]();
    const resumed: Event[] = [];
    for (let index = 0; index < 4; index++) resumed.push((await iterator.next()).value as Event);
    expect(ids(resumed)).toEqual(ids(history.slice(2)));

    // Caught up, it waits for new events and hands them out as they come.
    const later = (async () => {
      const more: Event[] = [];
      for (let index = 0; index < 3; index++) more.push((await iterator.next()).value as Event);
      return more;
    })();
    const candidateId = (await submitCandidate(test.ctx, interview, { email: "third@acme.example" })).id;
    expect((await later).map((event) => [event.type, event.candidate.id])).toEqual([
      ["candidate.submitted", candidateId],
      ["candidate.scored", candidateId],
      ["candidate.ready", candidateId],
    ]);
    stop.abort();
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it("saves a start at the oldest kept event at once: a run that ended before its first page passed resumes there", async () => {
    const history = (await client().events.page({ limit: 25 })).events;
    const store = fileCursorStore(path.join(stateDir, "oldest-unread", "cursor"));
    const stop = new AbortController();
    const first = client().events.follow({ store, start: "oldest", pollIntervalMs: 100, signal: stop.signal });
    expect(await first.start()).toBe("oldest");
    // Nothing read: the run ends here, as a listen whose receiver refused the first event does.
    const again = client().events.follow({ store, pollIntervalMs: 100, signal: stop.signal });
    expect(await again.start()).toBe("saved");
    expect(ids(await take(again, 2))).toEqual(ids(history.slice(0, 2)));
    stop.abort();
  });

  it("starts from now by default, saving that position at once", async () => {
    const store = fileCursorStore(path.join(stateDir, "now", "cursor"));
    const stop = new AbortController();
    const follower = client().events.follow({ store, pollIntervalMs: 100, signal: stop.signal });
    expect(await follower.start()).toBe("now");
    expect(await store.load()).toMatch(/\S/);

    const next = take(follower, 1);
    const candidateId = (await submitCandidate(test.ctx, interview, { email: "fourth@acme.example" })).id;
    expect((await next).map((event) => [event.type, event.candidate.id])).toEqual([["candidate.submitted", candidateId]]);
    stop.abort();
  });

  it("passes the type filter to the API", async () => {
    const stop = new AbortController();
    const ready = await take(client().events.follow({ start: "oldest", type: "candidate.ready", pollIntervalMs: 100, signal: stop.signal }), 4);
    stop.abort();
    expect(ready.map((event) => event.type)).toEqual(Array(4).fill("candidate.ready"));
    expect(new Set(ready.map((event) => event.candidate.id)).size).toBe(4);
  });
});
