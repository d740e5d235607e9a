import createClient from "openapi-fetch";
import { ApiError } from "./api-error.js";
import type { CallOptions, Candidate, CandidateQuery, EventQuery, Interview, InterviewQuery } from "./api-types.js";
import { EventFollower, type FollowOptions } from "./events-follower.js";
import type { paths } from "./openapi-types.js";
import { type RetryOptions, retryingOnRateLimit } from "./rate-limit-retry.js";

export type ClientOptions = {
  /** The API's base address, `/v1` included (`https://api.example.com/v1`); a bare origin gets `/v1` added. */
  baseUrl: string;
  apiKey: string;
  retry?: RetryOptions;
  /** The fetch to send requests with (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
};

/** The API's base address as the client uses it: `/v1` added to a bare origin, no trailing slash. */
export function apiBase(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.pathname === "/" || url.pathname === "") url.pathname = "/v1";
  return url.toString().replace(/\/+$/, "");
}

/** The envelope's `data`, or the API's refusal as an `ApiError`. */
async function dataOf<Result>(call: Promise<{ data?: { data: Result }; error?: unknown; response: Response }>): Promise<Result> {
  const { data, error, response } = await call;
  if (data === undefined) throw new ApiError(response, error);
  return data.data;
}

/** Every item of every page, following `next_cursor` until it is null. */
async function* eachItem<Item>(page: (cursor: string | undefined) => Promise<{ items: Item[]; next: string | null }>): AsyncGenerator<Item> {
  let cursor: string | undefined;
  do {
    const { items, next } = await page(cursor);
    yield* items;
    cursor = next ?? undefined;
  } while (cursor !== undefined);
}

/**
 * A typed client for every `/v1` endpoint. Calls return the envelope's
 * `data` (single objects unwrapped) and throw `ApiError` when refused; a 429
 * is retried after its `Retry-After` (see `RetryOptions`).
 */
export function createInterviewClient(options: ClientOptions) {
  const api = createClient<paths>({
    baseUrl: apiBase(options.baseUrl),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingOnRateLimit(options.fetch ?? ((request) => fetch(request)), options.retry),
  });

  const events = {
    /** One page of the history, oldest first; send `next_cursor` back as `after`. */
    page: (query: EventQuery = {}, call: CallOptions = {}) => dataOf(api.GET("/events", { params: { query }, ...call })),
    /** Follows the history as it grows, keeping its position in `store` (see `EventFollower`). */
    follow: (follow: FollowOptions = {}) => new EventFollower(events.page, follow),
  };

  return {
    me: (call: CallOptions = {}) => dataOf(api.GET("/me", call)),
    interviews: {
      page: (query: InterviewQuery = {}, call: CallOptions = {}) => dataOf(api.GET("/interviews", { params: { query }, ...call })),
      /** Every interview, newest first, across pages: `for await (const interview of client.interviews.list())`. */
      list: (query: Omit<InterviewQuery, "cursor"> = {}, call: CallOptions = {}): AsyncGenerator<Interview> =>
        eachItem(async (cursor) => {
          const page = await dataOf(api.GET("/interviews", { params: { query: { ...query, cursor } }, ...call }));
          return { items: page.interviews, next: page.next_cursor };
        }),
      get: async (id: string, call: CallOptions = {}) => (await dataOf(api.GET("/interviews/{id}", { params: { path: { id } }, ...call }))).interview,
    },
    candidates: {
      page: (query: CandidateQuery = {}, call: CallOptions = {}) => dataOf(api.GET("/candidates", { params: { query }, ...call })),
      /** Every matching candidate across pages, in the order `state` gives: `for await (const candidate of client.candidates.list({ state: "all" }))`. */
      list: (query: Omit<CandidateQuery, "cursor"> = {}, call: CallOptions = {}): AsyncGenerator<Candidate> =>
        eachItem(async (cursor) => {
          const page = await dataOf(api.GET("/candidates", { params: { query: { ...query, cursor } }, ...call }));
          return { items: page.candidates, next: page.next_cursor };
        }),
      get: async (id: string, call: CallOptions = {}) => (await dataOf(api.GET("/candidates/{id}", { params: { path: { id } }, ...call }))).candidate,
      transcript: async (id: string, call: CallOptions = {}) =>
        (await dataOf(api.GET("/candidates/{id}/transcript", { params: { path: { id } }, ...call }))).transcript,
      /** A download link for a `ready` recording; otherwise an `ApiError` 404 whose `details.recording_status` says why. */
      recording: async (id: string, call: CallOptions = {}) =>
        (await dataOf(api.GET("/candidates/{id}/recording", { params: { path: { id } }, ...call }))).recording,
    },
    files: {
      get: async (id: string, call: CallOptions = {}) => (await dataOf(api.GET("/files/{id}", { params: { path: { id } }, ...call }))).file,
    },
    events,
  };
}

export type InterviewClient = ReturnType<typeof createInterviewClient>;
