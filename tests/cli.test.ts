/**
 * The CLI contract, run exactly as documented: `npm run cli -- <command> --json`
 * prints one JSON object on stdout; errors go to stderr with a non-zero exit.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys, companies, users } from "@/db/schema";
import { hashApiKey } from "@/server/auth/api-key-format";
import { verifyPassword } from "@/server/auth/passwords";
import { useTestDatabase } from "./support/database";

const test = useTestDatabase();
const run = promisify(execFile);

async function cli(...args: string[]) {
  try {
    const { stdout, stderr } = await run("npm", ["run", "cli", "--", ...args], {
      env: { ...process.env, DATABASE_URL: test.url, FILE_STORAGE_DIR: test.filesDir },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The whole of stdout must be exactly one JSON object. */
function json(stdout: string) {
  expect(stdout.trim().split("\n")).toHaveLength(1);
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe("cli", { timeout: 120_000 }, () => {
  it("creates and suspends a company, a user and a key, and revokes the key", async () => {
    const company = json((await cli("company", "create", "--name", "Globex", "--json")).stdout);
    expect(company).toEqual({ id: expect.stringMatching(/^co_/) });
    const companyId = company.id as string;

    const user = json(
      (await cli("user", "create", "--company", companyId, "--email", "ops@globex.example", "--name", "Ops", "--role", "admin", "--password", "correct horse battery", "--json")).stdout,
    );
    expect(user).toEqual({ id: expect.stringMatching(/^user_/) });
    const [stored] = await test.handle.db.select().from(users).where(eq(users.id, user.id as string));
    expect(stored!.passwordHash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse battery", stored!.passwordHash)).toBe(true);

    const key = json((await cli("key", "create", "--company", companyId, "--name", "Zapier", "--json")).stdout);
    expect(key).toEqual({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^ivk_/) });
    const [keyRow] = await test.handle.db.select().from(apiKeys).where(eq(apiKeys.id, key.id as string));
    expect(keyRow!.hash).toBe(hashApiKey(key.key as string));
    expect(JSON.stringify(keyRow)).not.toContain(key.key as string);

    expect((await cli("key", "revoke", key.id as string, "--json")).code).toBe(0);
    const [revoked] = await test.handle.db.select().from(apiKeys).where(eq(apiKeys.id, key.id as string));
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

  it("seeds the demo company once", async () => {
    const first = json((await cli("seed", "--json")).stdout);
    expect(first).toMatchObject({ created: true, company_id: expect.stringMatching(/^co_/), api_key: expect.stringMatching(/^ivk_/) });
    const second = json((await cli("seed", "--json")).stdout);
    expect(second).toEqual({ created: false, company_id: first.company_id });
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

    const badRole = await cli("user", "create", "--company", "c", "--email", "a@b.co", "--name", "n", "--role", "owner", "--password", "long enough pw", "--json");
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain("--role must be admin or member");
  });
});
