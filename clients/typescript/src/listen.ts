/**
 * `listen`: follows `GET /v1/events` and POSTs each event to a local address,
 * signed and headed like a real delivery, so a receiver can be built and
 * tested on a laptop without a public address. Nothing runs on the service's
 * side: the events come from the history, read with the API key.
 *
 * Both command lines call `listenCommand`: `interview-api listen` (this
 * package's bin) and the repository's `npm run cli -- listen`.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { homedir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ApiError } from "./api-error.js";
import type { Event } from "./api-types.js";
import { apiBase, createInterviewClient } from "./client.js";
import type { FollowStart } from "./events-follower.js";
import { fileCursorStore } from "./file-cursor-store.js";
import { signWebhook } from "./webhook-signatures.js";

export type ListenFlags = Record<string, string | boolean | undefined>;

/** The options of `listen`, declared once for both command lines (and their help); `--json` and `--help` are each command line's own. */
export const listenOptions = {
  "api-url": { type: "string", value: "URL", required: true, description: "the API's base address, such as https://api.example.com/v1" },
  "api-key": { type: "string", value: "KEY", required: true, description: "an API key of the company whose events to forward" },
  "forward-to": { type: "string", value: "URL", required: true, description: "the http(s) address to POST each event to" },
  events: { type: "string", value: "a,b", description: "only these event types, comma-separated (default: every type)" },
  "from-start": { type: "boolean", description: "replay the kept history (30 days) from its oldest event instead of resuming" },
  "state-dir": {
    type: "string",
    value: "DIR",
    description: "where the position and the signing secret are kept (default: $XDG_STATE_HOME or ~/.local/state, then interview-api/listen)",
  },
} as const;

/** Why `listen` could not run: a wrong flag (`usage`), or an API it could not reach at the start (`unreachable`). */
export class ListenError extends Error {
  constructor(
    readonly code: "usage" | "unreachable",
    message: string,
  ) {
    super(message);
    this.name = "ListenError";
  }
}

type ListenSettings = {
  apiUrl: string;
  apiKey: string;
  forwardTo: string;
  /** As the API's `type` parameter takes them; the API refuses unknown ones with a 422. */
  eventTypes: string | undefined;
  fromStart: boolean;
  json: boolean;
  stateDir: string;
};

/**
 * `events` the events tried, `accepted` those the receiver took; `failed` is
 * 1 when the run stopped while an event still waited for the receiver (the
 * next run starts again from it), and `failed_tries` counts every refused try.
 */
export type ListenSummary = { events: number; accepted: number; failed: number; failed_tries: number };

/** Lines for people or, with `--json`, one JSON object per line. */
export type ListenOutput = { out: (line: string) => void; err: (line: string) => void };

const answerDeadlineMs = 10_000;
const pauseAfterApiFailureMs = 5_000;
/** Waits before trying a refused event again; the last one repeats. Short, since a person is at the keyboard fixing the receiver. */
const retryPausesMs = [1_000, 2_000, 5_000, 10_000, 30_000];
/** How much of a refusing receiver's answer is shown: enough for a framework's validation errors. */
const shownAnswerCharacters = 500;

function text(flags: ListenFlags, name: keyof typeof listenOptions): string | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "") throw new ListenError("usage", `--${name} needs a value`);
  return value.trim();
}

function address(flags: ListenFlags, name: "api-url" | "forward-to"): string {
  const value = text(flags, name);
  if (value === undefined) throw new ListenError("usage", `--${name} is required`);
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) throw new ListenError("usage", `--${name} must be an http(s) address, got ${value}`);
  return url.toString();
}

function listenSettings(flags: ListenFlags): ListenSettings {
  const apiKey = text(flags, "api-key");
  if (apiKey === undefined) throw new ListenError("usage", "--api-key is required");
  const stateHome = process.env.XDG_STATE_HOME || path.join(homedir(), ".local", "state");
  return {
    apiUrl: apiBase(address(flags, "api-url")),
    apiKey,
    forwardTo: address(flags, "forward-to"),
    eventTypes: text(flags, "events")?.replace(/\s+/g, ""),
    fromStart: flags["from-start"] === true,
    json: flags.json === true,
    stateDir: text(flags, "state-dir") ?? path.join(stateHome, "interview-api", "listen"),
  };
}

/**
 * One position and one secret per API address and key, named by the key's
 * first ten characters (the prefix the settings show), never the key itself.
 */
function stateFiles(settings: ListenSettings) {
  const name = `${settings.apiUrl.replace(/[^A-Za-z0-9]+/g, "-")}--${settings.apiKey.slice(0, 10)}`;
  return { cursor: path.join(settings.stateDir, `${name}.cursor`), secret: path.join(settings.stateDir, `${name}.secret`) };
}

/** A receiver configured once keeps working across restarts: the secret is made on the first run and kept beside the position. */
async function signingSecret(file: string): Promise<string> {
  const saved = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return "";
    throw error;
  });
  if (saved.trim()) return saved.trim();
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** One try: the receiver's status, or why there was none; what a refusing receiver said (its body, trimmed); and how long it took. */
type Forwarded = { attempt: number; status: number | null; error: string | null; answer: string | null; durationMs: number };

function failureOf(error: unknown): string {
  if (error instanceof Error && error.name === "TimeoutError") return `no answer within ${answerDeadlineMs / 1000} s`;
  // fetch reports every network failure as "fetch failed"; what happened is in its cause.
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** One POST with the headers a delivery carries; a redirect is not followed and counts as a failure, as for deliveries. */
async function forward(event: Event, attempt: number, settings: ListenSettings, secret: string, signal: AbortSignal): Promise<Forwarded> {
  const body = JSON.stringify(event);
  const headers = {
    "Content-Type": "application/json",
    "User-Agent": `InterviewAPI-Webhooks/1.0 (+${new URL(settings.apiUrl).origin}; listen)`,
    "Service-Event-Id": event.id,
    "Service-Event-Type": event.type,
    "Service-Delivery-Attempt": String(attempt),
    ...signWebhook(body, secret, { id: event.id, timestamp: Math.floor(Date.now() / 1000) }),
  };
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(settings.forwardTo, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.any([signal, AbortSignal.timeout(answerDeadlineMs)]),
    });
    const text = await response.text();
    const answer = response.ok ? null : text.replace(/\s+/g, " ").trim().slice(0, shownAnswerCharacters) || null;
    return { attempt, status: response.status, error: null, answer, durationMs: took() };
  } catch (error) {
    return { attempt, status: null, error: failureOf(error), answer: null, durationMs: took() };
  }
}

const accepted = (forwarded: Forwarded) => forwarded.status !== null && forwarded.status >= 200 && forwarded.status < 300;

function eventLine(event: Event, forwarded: Forwarded, json: boolean): string {
  const at = new Date();
  if (json) {
    return JSON.stringify({
      time: at.toISOString(),
      event_id: event.id,
      type: event.type,
      candidate_id: event.candidate.id,
      attempt: forwarded.attempt,
      status: forwarded.status,
      accepted: accepted(forwarded),
      answer: forwarded.answer,
      duration_ms: forwarded.durationMs,
      error: forwarded.error,
    });
  }
  const answer = forwarded.status === null ? `failed: ${forwarded.error}` : String(forwarded.status);
  const attempt = forwarded.attempt > 1 ? `, try ${forwarded.attempt}` : "";
  const said = forwarded.answer === null ? "" : `\n    the receiver answered: ${forwarded.answer}`;
  return `${at.toLocaleTimeString("en-GB")}  ${event.type.padEnd(24)}  ${event.candidate.id}  ${event.id}  -> ${answer} (${forwarded.durationMs} ms${attempt})${said}`;
}

const startsFrom: Record<FollowStart, string> = {
  saved: "where the last run stopped",
  now: "now on",
  oldest: "the oldest kept event",
};

function startLine(settings: ListenSettings, from: FollowStart, secret: string): string {
  if (settings.json) return JSON.stringify({ api_url: settings.apiUrl, forward_to: settings.forwardTo, from, secret });
  return `Forwarding events from ${startsFrom[from]}, ${settings.apiUrl} -> ${settings.forwardTo}\nSigning secret: ${secret}\nCtrl-C stops.`;
}

/**
 * Whether anything accepts connections at the forwarding address: a TCP
 * connection only, so the receiver sees no stray request. Null when one was
 * made (or is merely slow), otherwise why not (ECONNREFUSED, ENOTFOUND…).
 */
function connectionProblem(forwardTo: string): Promise<string | null> {
  const url = new URL(forwardTo);
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ""), port, timeout: 2_000 });
  return new Promise<string | null>((resolve) => {
    socket.once("connect", () => resolve(null));
    socket.once("timeout", () => resolve(null));
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  }).finally(() => socket.destroy());
}

function unreachableWarning(settings: ListenSettings, problem: string): string {
  const message = `Nothing accepts connections at ${settings.forwardTo} (${problem}). Start your receiver there: each event is tried again until it answers 2xx.`;
  return settings.json ? JSON.stringify({ warning: { code: "forward_to_unreachable", message } }) : `Warning: ${message}`;
}

/** A refusal that trying again cannot cure: the key, the company or the flags. A 429 beyond the retry bound, a 5xx or the network may pass. */
const isPermanent = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;

/**
 * Forwards events until `signal` aborts. The first request must succeed (a
 * wrong address or key ends the run at once); later failures of the API are
 * reported and waited out, then following resumes from the saved position.
 *
 * An event the receiver refuses (no 2xx, or no answer) is tried again, with
 * pauses, until it passes or the run stops; nothing after it is sent
 * meanwhile, and the follower saves a page's cursor only once every event of
 * it has passed. So a stopped run's position is never past an event that was
 * not forwarded: the next run starts again with that event's page.
 */
async function listen(settings: ListenSettings, output: ListenOutput, signal: AbortSignal): Promise<ListenSummary> {
  const files = stateFiles(settings);
  const client = createInterviewClient({ baseUrl: settings.apiUrl, apiKey: settings.apiKey });
  const store = fileCursorStore(files.cursor);
  if (settings.fromStart) await rm(files.cursor, { force: true });
  const secret = await signingSecret(files.secret);
  const follow = () => client.events.follow({ store, start: settings.fromStart ? "oldest" : "now", type: settings.eventTypes, signal });

  const summary: ListenSummary = { events: 0, accepted: 0, failed: 0, failed_tries: 0 };
  let follower = follow();
  const from = await follower.start().catch((error: unknown) => {
    throw error instanceof ApiError ? error : new ListenError("unreachable", `Could not reach ${settings.apiUrl} (${failureOf(error)}).`);
  });
  output.out(startLine(settings, from, secret));
  const problem = await connectionProblem(settings.forwardTo);
  if (problem !== null) output.err(unreachableWarning(settings, problem));

  /** Tries one event until the receiver takes it; false when the run stopped first. */
  async function deliver(event: Event): Promise<boolean> {
    summary.events++;
    for (let attempt = 1; ; attempt++) {
      const forwarded = await forward(event, attempt, settings, secret, signal);
      if (signal.aborted) break;
      output.out(eventLine(event, forwarded, settings.json));
      if (accepted(forwarded)) {
        summary.accepted++;
        return true;
      }
      summary.failed_tries++;
      const pause = retryPausesMs[Math.min(attempt, retryPausesMs.length) - 1]!;
      await sleep(pause, undefined, { signal }).catch(() => {});
      if (signal.aborted) break;
    }
    summary.failed++;
    return false;
  }

  while (!signal.aborted) {
    try {
      for await (const event of follower) if (!(await deliver(event))) break;
    } catch (error) {
      if (isPermanent(error)) throw error;
      const failure = error instanceof ApiError ? `${error.status} ${error.error}` : failureOf(error);
      output.err(`The API failed (${failure}); trying again in ${pauseAfterApiFailureMs / 1000} s.`);
      await sleep(pauseAfterApiFailureMs, undefined, { signal }).catch(() => {});
      follower = follow();
    }
  }
  return summary;
}

/** `listen` as a command line runs it: flags in, lines out until Ctrl-C (or SIGTERM), then the summary to print. */
export async function listenCommand(flags: ListenFlags, output: ListenOutput): Promise<{ json: ListenSummary; text: string }> {
  const settings = listenSettings(flags);
  const stop = new AbortController();
  // Kept for the whole run: a wrapper (npm, tsx) may pass on the terminal's Ctrl-C a second time, which must not kill the process mid-summary.
  const onSignal = () => stop.abort();
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const summary = await listen(settings, output, stop.signal);
    const waiting = summary.failed > 0 ? " (the next run starts again from it)" : "";
    return {
      json: summary,
      text: `Stopped after ${summary.events} event(s): ${summary.accepted} accepted, ${summary.failed} not${waiting}; ${summary.failed_tries} refused ${summary.failed_tries === 1 ? "try" : "tries"}.`,
    };
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
