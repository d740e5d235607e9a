/**
 * `listen`, run as a user would (`npm run cli -- listen`, and the client
 * package's own bin), against the real server and a local HTTP receiver: what
 * it forwards, how it is signed and headed, and that a restart resumes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { verifyWebhook } from "@interview-api/client";
import { Webhook } from "standardwebhooks";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/domain/accounts";
import { useTestDatabase } from "../support/database";
import { makeCompany, makeInterview, submitCandidate } from "../support/fixtures";
import { freePort } from "../support/ports";
import { useTestServer } from "../support/server";

const test = useTestDatabase();
const server = useTestServer(test);
const stateDir = mkdtempSync(path.join(tmpdir(), "client-listen-"));
const threeTypes = ["candidate.submitted", "candidate.scored", "candidate.ready"];

type Forwarded = { headers: IncomingHttpHeaders; body: string };
const forwarded: Forwarded[] = [];
let answer: (request: Forwarded) => number | { status: number; body: string } = () => 200;
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const entry = { headers: request.headers, body: Buffer.concat(chunks).toString("utf8") };
    forwarded.push(entry);
    const given = answer(entry);
    const { status, body } = typeof given === "number" ? { status: given, body: "ok" } : given;
    response.writeHead(status, { "Content-Type": "application/json" }).end(body);
  });
});
let forwardTo: string;
let interview: Awaited<ReturnType<typeof makeInterview>>;
let apiKey: string;

/** A running `listen`: its stdout lines as they come, its stderr, and Ctrl-C. */
function startListen(command: string[], extra: string[] = []) {
  const args = ["listen", "--api-url", `${server.baseUrl}/v1`, "--api-key", apiKey, "--forward-to", forwardTo, "--state-dir", stateDir, ...extra];
  // Its own process group, so that SIGINT reaches npm, tsx and node as a terminal's Ctrl-C does.
  const child: ChildProcess = spawn(command[0]!, [...command.slice(1), ...args], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  let stderr = "";
  createInterface({ input: child.stdout! }).on("line", (line) => lines.push(line));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // npm itself dies of the SIGINT; listen, a grandchild, has finished once every writer of its stdout is gone.
  const outputClosed = new Promise((resolve) => child.stdout!.once("close", resolve));
  return {
    lines,
    waitForLines: async (count: number) => {
      const deadline = Date.now() + 20_000;
      while (lines.length < count && Date.now() < deadline && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
      if (lines.length < count) throw new Error(`expected ${count} line(s), got:\n${lines.join("\n")}\nstderr:\n${stderr}`);
      return lines;
    },
    /** Ctrl-C; then the exit code, which is npm's own (null: killed by the signal) when run through `npm run`. */
    stop: async () => {
      process.kill(-child.pid!, "SIGINT");
      await outputClosed;
      return { code: await exited, stderr };
    },
    exited,
    stderr: () => stderr,
  };
}

const cli = ["npm", "run", "cli", "--"];
const packageBin = [process.execPath, "clients/typescript/bin/interview-api.js"];

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  forwardTo = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const companyId = await makeCompany(test.ctx, "Acme");
  apiKey = (await createApiKey(test.ctx, { companyId, name: "Listen" })).key;
  interview = await makeInterview(test.ctx, companyId);
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  rmSync(stateDir, { recursive: true, force: true });
});

describe("listen", { timeout: 120_000 }, () => {
  let secret: string;
  let before: string;
  let during: string;

  it("forwards the events from now on, signed and headed like a delivery, one JSON line each", async () => {
    before = (await submitCandidate(test.ctx, interview, { email: "before@acme.example" })).id;
    const listen = startListen(cli, ["--json"]);
    const [start] = await listen.waitForLines(1);
    const started = JSON.parse(start!);
    expect(started).toEqual({
      api_url: `${server.baseUrl}/v1`,
      forward_to: forwardTo,
      from: "now",
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    secret = started.secret;
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);

    during = (await submitCandidate(test.ctx, interview, { email: "during@acme.example" })).id;
    const lines = (await listen.waitForLines(4)).slice(1).map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.type, line.candidate_id, line.status, line.accepted, line.error])).toEqual(
      threeTypes.map((type) => [type, during, 200, true, null]),
    );
    for (const line of lines) {
      expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(line.duration_ms).toEqual(expect.any(Number));
    }

    expect(forwarded).toHaveLength(3);
    forwarded.forEach(({ headers, body }, index) => {
      const event = verifyWebhook(body, headers, secret, { toleranceSeconds: 300 });
      expect(event).toMatchObject({ id: lines[index].event_id, type: threeTypes[index], candidate: { id: during } });
      expect(headers).toMatchObject({
        "content-type": "application/json",
        "user-agent": expect.stringMatching(/^InterviewAPI-Webhooks\/1\.0 /),
        "service-event-id": event.id,
        "service-event-type": event.type,
        "service-delivery-attempt": "1",
        "service-signature": expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/),
        "webhook-id": event.id,
        "webhook-timestamp": expect.stringMatching(/^\d+$/),
        "webhook-signature": expect.stringMatching(/^v1,\S+$/),
      });
      const standardOnly = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== "service-signature"));
      expect(verifyWebhook(body, standardOnly, secret).id).toBe(event.id);
      // And by verifiers we did not write, so the client's signing and checking cannot be wrong together.
      expect(new Webhook(secret).verify(body, headers as Record<string, string>)).toMatchObject({ id: event.id });
      expect(Stripe.webhooks.constructEvent(body, headers["service-signature"] as string, secret, 300)).toMatchObject({ id: event.id });
    });

    expect((await listen.stop()).stderr).toBe("");
    expect(JSON.parse(listen.lines.at(-1)!)).toEqual({ events: 3, accepted: 3, failed: 0, failed_tries: 0 });
    expect(readdirSync(stateDir).sort()).toEqual([expect.stringMatching(/--ivk_\w{6}\.cursor$/), expect.stringMatching(/--ivk_\w{6}\.secret$/)]);
    expect(readdirSync(stateDir).join()).not.toContain(apiKey);
  });

  it("resumes after a restart (here from the package's own bin) with the same secret, shows what the receiver refused and tries it again", async () => {
    forwarded.length = 0;
    const whileStopped = (await submitCandidate(test.ctx, interview, { email: "stopped@acme.example" })).id;
    const refusal = JSON.stringify({ errors: [{ field: "candidate.result", message: "must not be null" }] });
    answer = (request) =>
      request.headers["service-event-type"] === "candidate.scored" && request.headers["service-delivery-attempt"] === "1"
        ? { status: 422, body: `${refusal}\n` }
        : 202;
    const listen = startListen(packageBin, ["--json"]);
    const lines = (await listen.waitForLines(5)).map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ from: "saved", secret });
    expect(lines.slice(1).map((line) => [line.type, line.candidate_id, line.attempt, line.status, line.accepted, line.answer])).toEqual([
      ["candidate.submitted", whileStopped, 1, 202, true, null],
      ["candidate.scored", whileStopped, 1, 422, false, refusal],
      ["candidate.scored", whileStopped, 2, 202, true, null],
      ["candidate.ready", whileStopped, 1, 202, true, null],
    ]);
    expect(forwarded.map(({ headers }) => [headers["service-event-type"], headers["service-delivery-attempt"]])).toEqual([
      ["candidate.submitted", "1"],
      ["candidate.scored", "1"],
      ["candidate.scored", "2"],
      ["candidate.ready", "1"],
    ]);
    for (const { body, headers } of forwarded) expect(verifyWebhook(body, headers, secret).candidate.id).toBe(whileStopped);
    expect((await listen.stop()).code).toBe(0);
    expect(JSON.parse(listen.lines.at(-1)!)).toEqual({ events: 3, accepted: 3, failed: 0, failed_tries: 1 });
    answer = () => 200;
  });

  it("replays the kept history with --from-start, filtered by --events, one line per event for people", async () => {
    forwarded.length = 0;
    const listen = startListen(cli, ["--from-start", "--events", "candidate.ready"]);
    await listen.waitForLines(6);
    const lines = listen.lines.slice(3);
    expect(listen.lines.slice(0, 3).join("\n")).toContain(`Signing secret: ${secret}`);
    expect(listen.lines[0]).toContain("the oldest kept event");
    const candidates = forwarded.map(({ body, headers }) => verifyWebhook(body, headers, secret).candidate.id);
    expect(candidates).toHaveLength(3);
    expect(candidates.slice(0, 2)).toEqual([before, during]);
    lines.forEach((line, index) => {
      expect(line).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d  candidate\\.ready +${candidates[index]}  evt_\\w+  -> 200 \\(\\d+ ms\\)$`));
    });
    await listen.stop();
    expect(listen.lines.at(-1)).toBe("Stopped after 3 event(s): 3 accepted, 0 not; 0 refused tries.");
  });

  it("never moves its position past an event it could not forward: a restart starts again from it", async () => {
    forwarded.length = 0;
    answer = (request) => (request.headers["service-event-type"] === "candidate.scored" ? { status: 500, body: "receiver broken" } : 200);
    const listen = startListen(cli, []);
    await listen.waitForLines(3);
    const refused = (await submitCandidate(test.ctx, interview, { email: "refused@acme.example" })).id;
    // The first try and, a second later, the second; the ready event waits behind them.
    await listen.waitForLines(3 + 4);
    expect(listen.lines.slice(3, 7).join("\n")).toMatch(
      new RegExp(
        [
          `\\d\\d:\\d\\d:\\d\\d  candidate\\.submitted +${refused} .* -> 200 \\(\\d+ ms\\)`,
          `\\d\\d:\\d\\d:\\d\\d  candidate\\.scored +${refused} .* -> 500 \\(\\d+ ms\\)`,
          "    the receiver answered: receiver broken",
          `\\d\\d:\\d\\d:\\d\\d  candidate\\.scored +${refused} .* -> 500 \\(\\d+ ms, try 2\\)`,
        ].join("\n"),
      ),
    );
    await listen.stop();
    expect(forwarded.map(({ headers }) => headers["service-event-type"])).not.toContain("candidate.ready");
    expect(listen.lines.at(-1)).toMatch(/^Stopped after 2 event\(s\): 1 accepted, 1 not \(the next run starts again from it\); [2-9] refused tries\.$/);

    forwarded.length = 0;
    answer = () => 200;
    const again = startListen(cli, ["--json"]);
    // The ready event may already follow them: the first three lines are the ones asked about.
    const lines = (await again.waitForLines(3)).slice(0, 3).map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ from: "saved" });
    // Its page comes again whole: the event accepted before the refused one is sent once more (at least once).
    expect(lines.slice(1).map((line) => [line.type, line.candidate_id, line.status])).toEqual([
      ["candidate.submitted", refused, 200],
      ["candidate.scored", refused, 200],
    ]);
    await again.waitForLines(4);
    expect(JSON.parse(again.lines[3]!)).toMatchObject({ type: "candidate.ready", candidate_id: refused, status: 200 });
    await again.stop();
  });

  it("resumes a --from-start run stopped on its first, refused event at that event, not at now", async () => {
    const ownState = mkdtempSync(path.join(tmpdir(), "client-listen-from-start-"));
    answer = () => ({ status: 500, body: "not yet" });
    const first = startListen(cli, ["--json", "--from-start", "--state-dir", ownState]);
    const [, refusedTry] = (await first.waitForLines(2)).map((line) => JSON.parse(line));
    expect(refusedTry).toMatchObject({ accepted: false, attempt: 1 });
    await first.stop();

    answer = () => 200;
    const again = startListen(cli, ["--json", "--state-dir", ownState]);
    const [start, resumed] = (await again.waitForLines(2)).map((line) => JSON.parse(line));
    expect(start).toMatchObject({ from: "saved" });
    expect(resumed).toMatchObject({ event_id: refusedTry.event_id, accepted: true });
    await again.stop();
    rmSync(ownState, { recursive: true, force: true });
  });

  it("warns at the start when nothing accepts connections at --forward-to, and goes on", async () => {
    const closedPort = await freePort();
    const listen = startListen(cli, ["--json", "--forward-to", `http://127.0.0.1:${closedPort}/hook`]);
    const [start] = await listen.waitForLines(1);
    expect(JSON.parse(start!)).toMatchObject({ forward_to: `http://127.0.0.1:${closedPort}/hook`, from: "saved" });
    await expect.poll(() => listen.stderr(), { timeout: 10_000 }).toContain("forward_to_unreachable");
    const warning = JSON.parse(listen.stderr().trim().split("\n").at(-1)!);
    expect(warning).toEqual({
      warning: {
        code: "forward_to_unreachable",
        message: expect.stringMatching(new RegExp(`^Nothing accepts connections at http://127\\.0\\.0\\.1:${closedPort}/hook \\(ECONNREFUSED\\)`)),
      },
    });
    await listen.stop();
  });

  it("stops at once with the API's refusal or a usage error", async () => {
    const refused = startListen(cli, ["--json", "--api-key", "ivk_1111111111111111111111111111"]);
    expect(await refused.exited).toBe(1);
    expect(JSON.parse(refused.stderr().trim().split("\n").at(-1)!)).toEqual({
      error: { code: "auth_error", message: expect.stringMatching(/HTTP 401, trace \S+\)$/) },
    });

    const wrongType = startListen(packageBin, ["--events", "candidate.hired"]);
    expect(await wrongType.exited).toBe(1);
    // The API's problems, not only its status.
    expect(wrongType.stderr()).toMatch(
      /^error: The query is not valid\.\n {2}type: has an unknown value "candidate\.hired"; use candidate\.submitted, .*\n\(HTTP 422, trace \S+\)$/m,
    );

    const usage = spawn("npm", [...cli.slice(1), "listen", "--api-url", `${server.baseUrl}/v1`, "--json"], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    usage.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await new Promise((resolve) => usage.once("exit", resolve))).toBe(2);
    expect(JSON.parse(stderr.trim())).toEqual({ error: { code: "usage", message: expect.stringContaining("--api-key is required") } });
  });
});
