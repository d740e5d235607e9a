/**
 * The guides' code samples run as printed: the signature checks against
 * messages signed by server/webhooks/delivery/signature.ts (the Python one where
 * python3 is installed, the Go one where go is), the paging and catch-up
 * loops and the errors guide's 422 against the real API, and the quick
 * start's commands: curl, installing the packed client into a project outside
 * the checkout and running its script with plain `node`, and `listen`.
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { validationExample } from "@/app/docs/errors/samples";
import { catchUpLoop } from "@/app/docs/event-history/samples";
import { pagingLoop } from "@/app/docs/pagination/samples";
import { clientInstall, listCandidatesScript, listenCommand, meWithCurl } from "@/app/docs/quick-start/samples";
import {
  goStandardLibrary,
  nodeSampleFile,
  nodeStandardLibrary,
  nodeStandardWebhooks,
  nodeStripe,
  pythonStandardLibrary,
} from "@/app/docs/verifying-signatures/samples";
import { createApiKey } from "@/server/domain/accounts";
import { submitAttempt } from "@/server/domain/attempts";
import { generateSecret } from "@/server/webhooks/delivery/secrets";
import { signatureHeader, standardWebhookHeaders } from "@/server/webhooks/delivery/signature";
import { useTestDatabase } from "../support/database";
import { completeSteps, makeCompany, makeInterview, scoreAndRecord, startCandidate } from "../support/fixtures";
import { callApi, useTestServer } from "../support/server";

// Inside the checkout, so that the samples' imports (stripe, standardwebhooks) resolve from node_modules.
const folder = path.resolve("test-artifacts", "guide-samples");
rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
// A fresh project, as `npm init -y` makes it: its .js files are CommonJS, so the samples run as pasted only under the names the guide gives.
writeFileSync(path.join(folder, "package.json"), JSON.stringify({ name: "guide-samples", version: "1.0.0", type: "commonjs" }));

/** Writes a sample to a file and imports it, as an integrator's code would. */
async function importSample<Module>(name: string, code: string): Promise<Module> {
  const file = path.join(folder, name);
  writeFileSync(file, code);
  return import(pathToFileURL(file).href);
}

const installed = (command: string, versionArgument: string) => {
  try {
    execFileSync(command, [versionArgument], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/** A delivery's body, with characters a re-encoding would change. */
const body = JSON.stringify({ id: "evt_guide", type: "candidate.ready", api_version: "v1", candidate: { name: "Zoë Ødegård", note: "a/b <c> \u2028" } });
const now = () => Math.floor(Date.now() / 1000);
const current = generateSecret();
const previous = generateSecret();

/** Each case: the Service-Signature value, the body as received, the secret the receiver holds, and whether it must pass. */
const serviceSignatureCases = () => [
  { name: "signed with the secret", header: signatureHeader(body, [current], now()), body, secret: current, valid: true },
  { name: "during a rotation, with the new secret", header: signatureHeader(body, [current, previous], now()), body, secret: current, valid: true },
  { name: "during a rotation, with the old secret", header: signatureHeader(body, [current, previous], now()), body, secret: previous, valid: true },
  { name: "another secret", header: signatureHeader(body, [current], now()), body, secret: previous, valid: false },
  { name: "an altered body", header: signatureHeader(body, [current], now()), body: body.replace("ready", "scored"), secret: current, valid: false },
  {
    name: "a re-encoded body",
    header: signatureHeader(body, [current], now()),
    body: JSON.stringify(JSON.parse(body), null, 1),
    secret: current,
    valid: false,
  },
  { name: "ten minutes old", header: signatureHeader(body, [current], now() - 600), body, secret: current, valid: false },
];

describe("verifying a Service-Signature", () => {
  it("Node, standard library only", async () => {
    const { isSignedByUs } = await importSample<{ isSignedByUs: (raw: string | Buffer, header: string, secret: string) => boolean }>(
      nodeSampleFile,
      nodeStandardLibrary,
    );
    for (const example of serviceSignatureCases()) {
      expect(isSignedByUs(example.body, example.header, example.secret), example.name).toBe(example.valid);
      expect(isSignedByUs(Buffer.from(example.body), example.header, example.secret), `${example.name}, as a Buffer`).toBe(example.valid);
    }
    expect(isSignedByUs(body, "", current)).toBe(false);
    expect(isSignedByUs(body, `t=${now()}`, current)).toBe(false);
  });

  it("Node, Stripe's library", async () => {
    const { verifiedEvent } = await importSample<{ verifiedEvent: (raw: string, header: string, secret: string) => { id: string } }>(
      "verify-stripe.mjs",
      nodeStripe,
    );
    for (const example of serviceSignatureCases()) {
      if (example.valid) expect(verifiedEvent(example.body, example.header, example.secret).id, example.name).toBe("evt_guide");
      else expect(() => verifiedEvent(example.body, example.header, example.secret), example.name).toThrow();
    }
  });

  it.runIf(installed("python3", "--version"))("Python, standard library only", () => {
    writeFileSync(path.join(folder, "verify.py"), pythonStandardLibrary);
    const driver = `import json, sys
from verify import is_signed_by_us
print(json.dumps([is_signed_by_us(c["body"].encode(), c["header"], c["secret"]) for c in json.load(sys.stdin)]))`;
    const cases = serviceSignatureCases();
    const output = execFileSync("python3", ["-c", driver], { cwd: folder, input: JSON.stringify(cases) }).toString();
    expect(JSON.parse(output)).toEqual(cases.map((example) => example.valid));
  });

  it.runIf(installed("go", "version"))("Go, standard library only", () => {
    const module = path.join(folder, "go");
    mkdirSync(path.join(module, "webhooks"), { recursive: true });
    writeFileSync(path.join(module, "go.mod"), "module guidesample\n\ngo 1.18\n");
    writeFileSync(path.join(module, "webhooks", "verify.go"), goStandardLibrary);
    writeFileSync(
      path.join(module, "main.go"),
      `package main

import (
	"encoding/json"
	"fmt"
	"os"

	"guidesample/webhooks"
)

func main() {
	var cases []struct{ Body, Header, Secret string }
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		panic(err)
	}
	results := []bool{}
	for _, c := range cases {
		results = append(results, webhooks.IsSignedByUs([]byte(c.Body), c.Header, c.Secret))
	}
	out, _ := json.Marshal(results)
	fmt.Println(string(out))
}
`,
    );
    const cases = serviceSignatureCases();
    const output = execFileSync("go", ["run", "."], { cwd: module, input: JSON.stringify(cases), env: { ...process.env, GOFLAGS: "-mod=mod" } }).toString();
    expect(JSON.parse(output)).toEqual(cases.map((example) => example.valid));
  });
});

describe("verifying the Standard Webhooks headers", () => {
  it("Node, the standardwebhooks library, with the whole whsec_ secret", async () => {
    const { verifiedEvent } = await importSample<{ verifiedEvent: (raw: string, headers: Record<string, string>, secret: string) => { id: string } }>(
      "verify-standard-webhooks.mjs",
      nodeStandardWebhooks,
    );
    const headers = standardWebhookHeaders("evt_guide", body, [current, previous], now());
    expect(headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/);
    expect(verifiedEvent(body, headers, current).id).toBe("evt_guide");
    expect(verifiedEvent(body, headers, previous).id).toBe("evt_guide");
    expect(() => verifiedEvent(body, headers, generateSecret())).toThrow();
    expect(() => verifiedEvent(body, { ...headers, "webhook-id": "evt_other" }, current)).toThrow();
    expect(() => verifiedEvent(body, standardWebhookHeaders("evt_guide", body, [current], now() - 600), current)).toThrow();
  });
});

describe("the guides' API samples, against the real API", () => {
  const test = useTestDatabase();
  const server = useTestServer(test);
  let key: string;
  let interview: Awaited<ReturnType<typeof makeInterview>>;

  async function submitCandidate(email: string) {
    const candidate = await startCandidate(test.ctx, interview.id, { email });
    await completeSteps(test.ctx, interview, candidate.id);
    await scoreAndRecord(test.ctx, candidate.id);
    await submitAttempt(test.ctx, candidate.id);
    return candidate.id;
  }

  beforeAll(async () => {
    const companyId = await makeCompany(test.ctx, "Samples Inc");
    key = (await createApiKey(test.ctx, { companyId, name: "guide samples" })).key;
    interview = await makeInterview(test.ctx, companyId);
  });

  it("the paging loop reads every candidate, page by page", async () => {
    const submitted = [];
    for (let index = 0; index < 3; index++) {
      test.clock.advance(60_000);
      submitted.push(await submitCandidate(`paged${index}@samples.example`));
    }
    const { allCandidates } = await importSample<{ allCandidates: (key: string, filters?: Record<string, string>) => AsyncIterable<{ id: string }> }>(
      "paging.mjs",
      pagingLoop(`${server.baseUrl}/v1`),
    );
    const seen: string[] = [];
    for await (const candidate of allCandidates(key, { limit: "1" })) seen.push(candidate.id);
    expect(seen).toEqual(submitted.reverse());
    await expect(allCandidates("ivk_not_a_key", {})[Symbol.asyncIterator]().next()).rejects.toThrow(/^401 auth_error: .*trace_id/);
  });

  it("the catch-up loop reads the history once, stores the cursor, and next time gets only what is new", async () => {
    const { catchUp } = await importSample<{
      catchUp: (
        key: string,
        store: { load: () => Promise<string | null>; save: (cursor: string) => Promise<void> },
        handle: (event: { id: string; type: string }) => Promise<void>,
      ) => Promise<void>;
    }>("catch-up.mjs", catchUpLoop(`${server.baseUrl}/v1`));
    let stored: string | null = null;
    const store = {
      load: async () => stored,
      save: async (cursor: string) => {
        stored = cursor;
      },
    };
    const handled: string[] = [];
    const handle = async (event: { id: string; type: string }) => {
      handled.push(event.type);
    };

    await catchUp(key, store, handle);
    expect(handled.length).toBeGreaterThan(0);
    expect(stored).toEqual(expect.any(String));
    handled.length = 0;
    await catchUp(key, store, handle);
    expect(handled).toEqual([]);

    await submitCandidate("late@samples.example");
    await expect
      .poll(
        async () => {
          await catchUp(key, store, handle);
          return handled;
        },
        { timeout: 10_000 },
      )
      .toEqual(["candidate.submitted", "candidate.scored", "candidate.ready"]);
  });

  describe("the quick start", { timeout: 240_000 }, () => {
    const run = promisify(execFile);
    const withKey = () => ({ ...process.env, INTERVIEW_API_KEY: key });

    it("2. curl calls /v1/me with the key", async () => {
      const { stdout } = await run("sh", ["-c", meWithCurl(`${server.baseUrl}/v1`)], { env: withKey() });
      expect(JSON.parse(stdout)).toMatchObject({ success: true, data: { company: { name: "Samples Inc" }, api_key: { name: "guide samples" } } });
    });

    it("3. the packed client installs into a project of its own and its script runs in plain node (no tsx, no TypeScript)", async () => {
      const submitted = await submitCandidate("client@samples.example");
      const project = mkdtempSync(path.join(tmpdir(), "quick-start-project-"));
      try {
        const [pack, install] = clientInstall.split("\n").filter((line) => !line.startsWith("#"));
        // In the checkout, as the page says; the file lands there, and is moved to where the project's command finds it.
        await run("sh", ["-c", pack!], { cwd: process.cwd() });
        const packed = readdirSync(process.cwd()).find((name) => /^interview-api-client-.*\.tgz$/.test(name))!;
        renameSync(packed, path.join(project, packed));
        writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "quick-start-project", private: true, type: "module" }));
        // The client's one dependency comes from npm's cache when it holds it.
        await run("sh", ["-c", `${install!.replace("/path/to/", `${project}/`)} --prefer-offline --no-audit --no-fund`], { cwd: project });
        expect(readdirSync(path.join(project, "node_modules", "@interview-api", "client", "dist"))).toEqual(
          expect.arrayContaining(["index.js", "index.d.ts", "listen.js"]),
        );
        writeFileSync(path.join(project, "list-candidates.mjs"), listCandidatesScript(`${server.baseUrl}/v1`));
        const { stdout } = await run(process.execPath, ["list-candidates.mjs"], { cwd: project, env: withKey() });
        const lines = stdout.trim().split("\n");
        expect(lines[0]).toBe("Signed in as guide samples of Samples Inc");
        expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${submitted} `)));
      } finally {
        rmSync(project, { recursive: true, force: true });
      }
    });

    it("4. listen forwards new events to a receiver on this machine", async () => {
      const received: string[] = [];
      const receiver = createServer((request, response) => {
        received.push(String(request.headers["service-event-type"]));
        request.resume().on("end", () => response.writeHead(200).end());
      });
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
      const forwardTo = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/webhooks`;
      const stateHome = mkdtempSync(path.join(tmpdir(), "quick-start-listen-"));
      // Its own process group, so that stopping it reaches npx and node as a terminal's Ctrl-C does.
      const listen = spawn("sh", ["-c", listenCommand(`${server.baseUrl}/v1`, forwardTo)], {
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...withKey(), XDG_STATE_HOME: stateHome },
      });
      const closed = new Promise((resolve) => listen.stdout!.once("close", resolve));
      try {
        const started = new Promise((resolve) => createInterface({ input: listen.stdout! }).on("line", (line) => line === "Ctrl-C stops." && resolve(line)));
        await started;
        const candidate = await submitCandidate("listen@samples.example");
        await expect.poll(() => received, { timeout: 20_000 }).toEqual(["candidate.submitted", "candidate.scored", "candidate.ready"]);
        expect(candidate).toMatch(/^cand_/);
      } finally {
        process.kill(-listen.pid!, "SIGINT");
        await closed;
        await new Promise((resolve) => receiver.close(resolve));
        rmSync(stateHome, { recursive: true, force: true });
      }
    });
  });

  it("the errors guide's 422 is what the API answers", async () => {
    const refused = await callApi(server, validationExample.request, { key });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ success: false, error: "validation_error", message: "The query is not valid." });
    expect(refused.body.details.problems).toEqual(validationExample.problems);
  });
});
