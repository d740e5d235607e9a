import { setTimeout as sleep } from "node:timers/promises";
import type { CallOptions, Event, EventPage, EventQuery } from "./api-types.js";

/**
 * Where a follower keeps its position between runs: the last `next_cursor`,
 * or `oldestKeptEvent` while it follows from the oldest kept event and no
 * page has passed yet (no cursor names that place).
 */
export type CursorStore = {
  load(): Promise<string | null>;
  save(cursor: string): Promise<void>;
};

/** Keeps the position for as long as the process lives. */
export function memoryCursorStore(): CursorStore {
  let saved: string | null = null;
  return {
    load: async () => saved,
    save: async (cursor) => {
      saved = cursor;
    },
  };
}

export type FollowOptions = Omit<EventQuery, "after"> & {
  /** Default: a memory store, so a new process starts again at `start`. */
  store?: CursorStore;
  /** Where to begin when the store holds no position: the events from now on (default), or the oldest kept event (30 days). */
  start?: "now" | "oldest";
  /** How long to wait before asking again once nothing more is waiting (default 2000). */
  pollIntervalMs?: number;
  /** Ends the iteration, also during a wait or a request. */
  signal?: AbortSignal;
};

/** Where following began: the store's saved position, or `start` when it had none. */
export type FollowStart = "saved" | "now" | "oldest";

type Position = { from: FollowStart; cursor: string | undefined };

/** What the store holds for a follower that starts at the oldest kept event, until its first page has passed. */
const oldestKeptEvent = "oldest";

/**
 * No interview has this id (`0` is not a base58 digit), so a page asked for it
 * is empty, and an empty page's `next_cursor` is the history's current end:
 * one request finds "now" without reading 30 days of events.
 */
const noSuchInterview = "int_0";

/**
 * Follows `GET /events` as it grows: `for await (const event of follower)`.
 * A page's `next_cursor` is saved once every event of the page has been
 * handed out and the loop asks for the next one, so an event is seen at least
 * once: a process stopped in the middle of a page sees that page again when
 * it resumes. Ignore repeats by `event.id`.
 */
export class EventFollower implements AsyncIterable<Event> {
  readonly #page: (query: EventQuery, call: CallOptions) => Promise<EventPage>;
  readonly #options: FollowOptions;
  readonly #store: CursorStore;
  #position: Promise<Position> | undefined;

  constructor(page: (query: EventQuery, call: CallOptions) => Promise<EventPage>, options: FollowOptions) {
    this.#page = page;
    this.#options = options;
    this.#store = options.store ?? memoryCursorStore();
  }

  /**
   * Finds the starting position and saves it at once ("now", or the oldest
   * kept event), so a restart goes on from there, however the run ended;
   * iterating does it too when not called first.
   */
  async start(): Promise<FollowStart> {
    this.#position ??= this.#locate();
    return (await this.#position).from;
  }

  async #locate(): Promise<Position> {
    const saved = await this.#store.load();
    if (saved === oldestKeptEvent) return { from: "saved", cursor: undefined };
    if (saved !== null) return { from: "saved", cursor: saved };
    if (this.#options.start === "oldest") {
      await this.#store.save(oldestKeptEvent);
      return { from: "oldest", cursor: undefined };
    }
    const { next_cursor } = await this.#page({ interview_id: noSuchInterview, limit: 1 }, { signal: this.#options.signal });
    await this.#store.save(next_cursor);
    return { from: "now", cursor: next_cursor };
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Event> {
    const { store: _store, start: _start, pollIntervalMs = 2000, signal, ...query } = this.#options;
    try {
      let { cursor } = await (this.#position ?? this.#locate());
      // A second iteration starts from the store again, where the first one left it.
      this.#position = undefined;
      while (!signal?.aborted) {
        const page = await this.#page({ ...query, after: cursor }, { signal });
        yield* page.events;
        if (page.next_cursor !== cursor) {
          cursor = page.next_cursor;
          await this.#store.save(cursor);
        }
        if (!page.has_more) await sleep(pollIntervalMs, undefined, { signal });
      }
    } catch (error) {
      if (!signal?.aborted) throw error;
    }
  }
}
