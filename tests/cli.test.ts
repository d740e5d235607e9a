/**
 * The CLI contract as documented: `npm run cli -- <command> --json` prints
 * one JSON object on stdout; errors go to stderr with a non-zero exit. Most
 * commands run the script bundled once per run (see `cliEntry`).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { apiKeys, companies, users } from "@/db/schema";
import { hashApiKey } from "@/server/auth/api-key-format";
import { verifyPassword } from "@/server/auth/passwords";
import { commands } from "@/server/cli/commands";
import { commandHelp } from "@/server/cli/help";
import { useTestDatabase } from "./support/database";
import { makeCompany } from "./support/fixtures";

const test = useTestDatabase();
const run = promisify(execFile);

/**
 * What `npm run cli --` runs (server/cli/main.ts), bundled into one file once
 * per run (global-setup.ts): npm, tsx's launcher and its loader cost about
 * 1.5 s of each command, and this file runs some forty. The documented
 * command itself runs in the tests that say so (`npmRunCli`).
 */
const cliEntry: Invocation = [process.execPath, [inject("bundles").cli]];
const documentedCommand: Invocation = ["npm", ["run", "cli", "--"]];
type Invocation = [file: string, leadingArgs: string[]];

/** `unset`: settings of the test's environment the command runs without. */
async function invoke([file, leadingArgs]: Invocation, args: string[], unset: string[] = []) {
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: test.url,
    FILE_STORAGE_DIR: test.filesDir,
    WEBHOOK_ALLOW_TARGETS: "hooks.example.com:443",
  };
  for (const name of unset) delete environment[name];
  try {
    const { stdout, stderr } = await run(file, [...leadingArgs, ...args], { env: environment });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const cli = (...args: string[]) => invoke(cliEntry, args);
const npmRunCli = (...args: string[]) => invoke(documentedCommand, args);

/** The whole of stdout must be exactly one JSON object. */
function json(stdout: string) {
  expect(stdout.trim().split("\n")).toHaveLength(1);
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe("cli", { timeout: 120_000 }, () => {
  it("creates and suspends a company, a user and a key, and revokes the key", async () => {
    const company = json((await npmRunCli("company", "create", "--name", "Globex", "--json")).stdout);
    expect(company).toEqual({ id: expect.stringMatching(/^co_/) });
    const companyId = company.id as string;

    const user = json(
      (
        await cli(
          "user",
          "create",
          "--company",
          companyId,
          "--email",
          "ops@globex.example",
          "--name",
          "Ops",
          "--role",
          "admin",
          "--password",
          "correct horse battery",
          "--json",
        )
      ).stdout,
    );
    expect(user).toEqual({ id: expect.stringMatching(/^user_/) });
    const [stored] = await test.handle.db
      .select()
      .from(users)
      .where(eq(users.id, user.id as string));
    expect(stored!.passwordHash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse battery", stored!.passwordHash)).toBe(true);

    const key = json((await cli("key", "create", "--company", companyId, "--name", "Zapier", "--json")).stdout);
    expect(key).toEqual({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^ivk_/) });
    const [keyRow] = await test.handle.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.id, key.id as string));
    expect(keyRow!.hash).toBe(hashApiKey(key.key as string));
    expect(JSON.stringify(keyRow)).not.toContain(key.key as string);

    expect((await cli("key", "revoke", key.id as string, "--json")).code).toBe(0);
    const [revoked] = await test.handle.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.id, key.id as string));
    expect(revoked!.revokedAt).toBeInstanceOf(Date);

    expect((await cli("company", "suspend", companyId, "--json")).code).toBe(0);
    expect((await test.handle.db.select().from(companies).where(eq(companies.id, companyId)))[0]!.suspendedAt).toBeInstanceOf(Date);
    expect((await cli("company", "unsuspend", companyId, "--json")).code).toBe(0);
    expect((await test.handle.db.select().from(companies).where(eq(companies.id, companyId)))[0]!.suspendedAt).toBeNull();
  });

  it("simulates a reproducible history and reports what it made", async () => {
    const { id } = json((await cli("company", "create", "--name", "Sim", "--json")).stdout);
    const result = json((await cli("simulate", "--company", id as string, "--interviews", "2", "--candidates", "25", "--seed", "7", "--json")).stdout);
    expect(result).toMatchObject({ mode: "history", interviews: 2, candidates: 25, events: expect.any(Number) });
    expect(result.events).toBeGreaterThan(0);
  });

  it("sets a company's rate limits, a number or the default, and refuses what is neither", async () => {
    const companyId = await makeCompany(test.ctx, "Limited");
    const limits = json((await cli("company", "rate-limits", companyId, "--per-key", "60", "--per-company", "default", "--json")).stdout);
    expect(limits).toEqual({ id: companyId, per_key: 60, per_company: null });
    const [limited] = await test.handle.db.select().from(companies).where(eq(companies.id, companyId));
    expect(limited).toMatchObject({ rateLimitPerKey: 60, rateLimitPerCompany: null });
    expect(await cli("company", "rate-limits", companyId, "--per-key", "lots", "--per-company", "default", "--json")).toMatchObject({ code: 2 });
    expect(await cli("company", "rate-limits", companyId, "--per-key", "0", "--per-company", "default", "--json")).toMatchObject({ code: 1 });
  });

  it("shows progress on stderr while stdout stays one JSON object", async () => {
    const { id } = json((await cli("company", "create", "--name", "Progress", "--json")).stdout);
    const { stdout, stderr } = await cli("simulate", "--company", id as string, "--candidates", "20", "--seed", "3", "--json");
    expect(json(stdout)).toMatchObject({ mode: "history", candidates: 20 });
    expect(stderr).toContain("20 of 20 candidates done");
  });

  it("prints help on stdout for the top level, each group and each command", async () => {
    for (const [asked, runner] of [
      [["--help"], npmRunCli],
      [["-h"], cli],
      [["help"], cli],
    ] as const) {
      const help = await runner(...asked);
      expect(help).toMatchObject({ code: 0, stderr: "" });
      for (const name of Object.keys(commands)) expect(help.stdout).toContain(`  ${name} `);
    }
    const group = await cli("webhook", "--help");
    expect(group.code).toBe(0);
    expect(group.stdout).toContain("webhook rotate-secret");
    expect(group.stdout).not.toContain("company create");

    expect((await cli("help", "key", "revoke")).stdout).toContain("Usage: npm run cli -- key revoke ID [--json]");
    // Every command's help names its usage, summary and options; `--help` prints
    // exactly that text, shown here for a one-word and a two-word command (a
    // process for each of the eighteen would only repeat the same path).
    for (const [name, command] of Object.entries(commands)) {
      const help = commandHelp(name, command);
      expect(help).toContain(`Usage: npm run cli -- ${name}`);
      expect(help).toContain(command.summary);
      for (const option of [...Object.keys(command.options), "json", "help"]) expect(help, name).toContain(`--${option}`);
    }
    for (const name of ["seed", "webhook create"]) {
      expect(await cli(...name.split(" "), "--help")).toEqual({ code: 0, stdout: commandHelp(name, commands[name]!), stderr: "" });
    }
  });

  it("seeds the demo company once", async () => {
    const first = json((await cli("seed", "--json")).stdout);
    expect(first).toMatchObject({ created: true, company_id: expect.stringMatching(/^co_/), api_key: expect.stringMatching(/^ivk_/) });
    const second = json((await cli("seed", "--json")).stdout);
    expect(second).toEqual({ created: false, company_id: first.company_id });
  });

  it("manages webhooks", async () => {
    const { id: companyId } = json((await cli("company", "create", "--name", "Hooks", "--json")).stdout) as { id: string };
    const { makeInterview } = await import("./support/fixtures");
    const interview = await makeInterview(test.ctx, companyId);
    const created = json(
      (
        await cli(
          "webhook",
          "create",
          "--company",
          companyId,
          "--url",
          "https://hooks.example.com/in",
          "--name",
          "ATS sync",
          "--events",
          "candidate.ready,candidate.submitted",
          "--json",
        )
      ).stdout,
    );
    // The warning depends on the machine's DNS (webhook-settings.test.ts fakes the answers).
    expect(created).toEqual({
      id: expect.stringMatching(/^wh_/),
      secret: expect.stringMatching(/^whsec_/),
      custom_headers: [],
      address_warning: created.address_warning,
    });
    const id = created.id as string;
    expect((await cli("webhook", "update", id, "--interviews", interview.id, "--json")).code).toBe(0);
    expect(json((await cli("webhook", "disable", id, "--json")).stdout)).toEqual({ id, enabled: false, marked_failed: 0 });
    let listed = json((await cli("webhook", "list", "--company", companyId, "--json")).stdout) as { webhooks: Array<Record<string, unknown>> };
    expect(listed.webhooks).toEqual([
      expect.objectContaining({
        id,
        name: "ATS sync",
        description: null,
        url: "https://hooks.example.com/in",
        event_types: ["candidate.ready", "candidate.submitted"],
        interviews: [interview.id],
        enabled: false,
        health: expect.objectContaining({ state: "off" }),
      }),
    ]);
    expect((await cli("webhook", "enable", id, "--json")).code).toBe(0);
    const rotated = json((await cli("webhook", "rotate-secret", id, "--json")).stdout);
    expect(rotated).toEqual({ secret: expect.stringMatching(/^whsec_/), previous_valid_until: expect.any(String) });
    expect(rotated.secret).not.toBe(created.secret);
    const sample = json((await cli("webhook", "sample", "--webhook", id, "--interview", interview.id, "--json")).stdout);
    expect(sample).toEqual({ message_id: expect.stringMatching(/^msg_/), event_id: expect.stringMatching(/^evt_/) });
    const resent = json((await cli("webhook", "resend", sample.message_id as string, "--json")).stdout);
    expect(resent).toEqual({ message_id: expect.stringMatching(/^msg_/) });
    listed = json((await cli("webhook", "list", "--company", companyId, "--json")).stdout) as { webhooks: Array<Record<string, unknown>> };
    expect(listed.webhooks[0]).toMatchObject({ enabled: true, interviews: [interview.id] });

    const badUrl = await cli("webhook", "create", "--company", companyId, "--url", "http://10.0.0.1/in", "--json");
    expect(badUrl.code).toBe(1);
    expect(JSON.parse(badUrl.stderr.trim().split("\n").at(-1)!).error.message).toBe("The address must start with https://.");
    const badEvents = await cli("webhook", "create", "--company", companyId, "--url", "https://hooks.example.com/in", "--events", "candidate.hired", "--json");
    expect(badEvents.code).toBe(2);
  });

  it("sets a webhook's custom headers from a file and its conditions, printing header names only", async () => {
    const { id: companyId } = json((await cli("company", "create", "--name", "Headers", "--json")).stdout) as { id: string };
    const headersFile = path.join(mkdtempSync(path.join(tmpdir(), "cli-headers-")), "headers");
    writeFileSync(headersFile, "X-Api-Key: cli-secret-value\n\nAuthorization: Basic dXNlcjpwYXNz\n");
    const created = await cli(
      "webhook",
      "create",
      "--company",
      companyId,
      "--url",
      "https://hooks.example.com/in",
      "--headers-file",
      headersFile,
      "--status-to",
      "shortlisted,passed",
      "--min-score",
      "70",
      "--json",
    );
    expect(created.stdout).not.toContain("cli-secret-value");
    const { id, custom_headers } = json(created.stdout) as { id: string; custom_headers: string[] };
    expect(custom_headers).toEqual(["X-Api-Key", "Authorization"]);
    // Each condition flag replaces its own part; an empty one removes it.
    expect((await cli("webhook", "update", id, "--status-to", "", "--json")).code).toBe(0);
    const listed = json((await cli("webhook", "list", "--company", companyId, "--json")).stdout) as { webhooks: Array<Record<string, unknown>> };
    expect(listed.webhooks[0]).toMatchObject({ custom_headers: ["X-Api-Key", "Authorization"], conditions: { minScore: 70 } });
    expect(JSON.stringify(listed)).not.toContain("cli-secret-value");
    writeFileSync(headersFile, "Host: x\n");
    const refused = await cli("webhook", "update", id, "--headers-file", headersFile, "--json");
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr.trim().split("\n").at(-1)!).error.message).toBe("The header Host cannot be set: it is taken from the webhook's address.");
    expect((await cli("webhook", "update", id, "--min-score", "high", "--json")).code).toBe(2);
  });

  it("refuses what needs APP_SECRET without it for a server at DATABASE_URL, naming it, and writes nothing", async () => {
    const { id: companyId } = json((await cli("company", "create", "--name", "Unkeyed", "--json")).stdout) as { id: string };
    const withoutSecret = (...args: string[]) => invoke(cliEntry, args, ["APP_SECRET"]);
    // What needs no secret goes on: the company's admin and key.
    const user = await withoutSecret(
      "user",
      "create",
      "--company",
      companyId,
      "--email",
      "ops@unkeyed.example",
      "--name",
      "Ops",
      "--role",
      "admin",
      "--password",
      "a long password",
      "--json",
    );
    expect(user.code, user.stderr).toBe(0);
    const refused = await withoutSecret("webhook", "create", "--company", companyId, "--url", "https://hooks.example.com/in", "--json");
    expect(refused.code).toBe(1);
    const { error } = JSON.parse(refused.stderr.trim().split("\n").at(-1)!) as { error: { code: string; message: string } };
    expect(error.code).toBe("configuration");
    expect(error.message).toContain("APP_SECRET is not set. With DATABASE_URL set, the development secret in .data/dev-secrets.json does not apply");
    const listed = json((await cli("webhook", "list", "--company", companyId, "--json")).stdout) as { webhooks: unknown[] };
    expect(listed.webhooks).toEqual([]);
  });

  it("does not start a web or worker process without APP_SECRET for a server at DATABASE_URL", async () => {
    for (const mode of ["web", "worker"]) {
      const environment: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "development", DATABASE_URL: test.url };
      delete environment.APP_SECRET;
      const failed = await run(process.execPath, [inject("bundles").main, mode], { env: environment, timeout: 30_000 }).then(
        () => ({ code: 0, stderr: "" }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed.code, mode).toBe(1);
      expect(failed.stderr, mode).toContain("APP_SECRET is not set");
    }
  });

  it("reports refusals and usage errors on stderr with a non-zero exit", async () => {
    const missing = await cli("key", "create", "--company", "co_missing", "--name", "x", "--json");
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("");
    expect(JSON.parse(missing.stderr.trim().split("\n").at(-1)!)).toEqual({ error: { code: "not_found", message: "No company with id co_missing." } });

    const usage = await cli("user", "create", "--company", "co_x", "--json");
    expect(usage.code).toBe(2);
    expect(usage.stdout).toBe("");
    expect(usage.stderr).toMatch(/--email is required|--role is required/);

    const unknown = await cli("teleport", "--json");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("company create --name NAME");

    const badRole = await cli(
      "user",
      "create",
      "--company",
      "c",
      "--email",
      "a@b.co",
      "--name",
      "n",
      "--role",
      "owner",
      "--password",
      "long enough pw",
      "--json",
    );
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain("--role must be admin or member");
  });

  it("says the database went away, that no change was kept half-written and to run it again, when its connection is lost mid-command", async () => {
    const companyId = await makeCompany(test.ctx, "Cut Off Ltd");
    // The company's row is held, so the command waits on it with its connection open; then its session is ended.
    const held = await test.handle.sql.reserve();
    try {
      await held`begin`;
      await held`select 1 from companies where id = ${companyId} for update`;
      const suspending = cli("company", "suspend", companyId, "--json");
      let waiting: Array<{ pid: number }> = [];
      for (const deadline = Date.now() + 20_000; waiting.length === 0 && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
        waiting = await test.handle
          .sql`select pid from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database() and pid <> pg_backend_pid()`;
      }
      expect(waiting).toHaveLength(1);
      await test.handle.sql`select pg_terminate_backend(${waiting[0]!.pid})`;
      const cutOff = await suspending;
      expect(cutOff.code).toBe(1);
      expect(JSON.parse(cutOff.stderr.trim().split("\n").at(-1)!)).toEqual({
        error: {
          code: "database_unavailable",
          // PostgreSQL's "terminating connection" or the closed socket, whichever the driver reads first.
          message: expect.stringMatching(
            /^The database went away while the command ran \(database (shutting down|connection lost)\)\. No change was kept half-written: each is committed whole or not at all\. Run the command again once the database answers\.$/,
          ),
        },
      });
    } finally {
      await held`rollback`;
      held.release();
    }
    expect((await test.handle.db.select().from(companies).where(eq(companies.id, companyId)))[0]!.suspendedAt).toBeNull();
  });
});
