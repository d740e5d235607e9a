/** Sign-in checks and the per-request member reload, against the real database. */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { loadMember, signInAttemptsPerMinute, signInWithPassword, TooManySignInAttempts } from "@/server/auth/members";
import { createUser, setCompanySuspended } from "@/server/domain/accounts";
import { forgetSpentRateLimits } from "@/server/security/rate-limit-buckets";
import { useTestDatabase } from "../support/database";
import { makeCompany } from "../support/fixtures";

const test = useTestDatabase();
const password = "correct horse battery staple";
let companyId: string;

beforeAll(async () => {
  companyId = await makeCompany(test.ctx, "Members Inc");
  await createUser(test.ctx, { companyId, email: "Ada@Members.example", name: "Ada", role: "admin", password });
});

describe("signing in", () => {
  it("accepts the right password for the email in any case, and refuses anything else the same way", async () => {
    const claims = await signInWithPassword(test.handle.sql, " ada@members.EXAMPLE ", password);
    expect(claims).toMatchObject({ sessionVersion: 1 });
    expect(await signInWithPassword(test.handle.sql, "ada@members.example", "wrong password")).toBeNull();
    expect(await signInWithPassword(test.handle.sql, "nobody@members.example", password)).toBeNull();
  });

  it("refuses a suspended company's users", async () => {
    await setCompanySuspended(test.ctx, companyId, true);
    try {
      expect(await signInWithPassword(test.handle.sql, "ada@members.example", password)).toBeNull();
    } finally {
      await setCompanySuspended(test.ctx, companyId, false);
    }
  });

  it(`limits guesses to ${signInAttemptsPerMinute} a minute per email, even with the right password after that`, async () => {
    await createUser(test.ctx, { companyId, email: "guessed@members.example", name: "Guessed", role: "member", password });
    for (let attempt = 0; attempt < signInAttemptsPerMinute; attempt++) {
      expect(await signInWithPassword(test.handle.sql, "guessed@members.example", `guess ${attempt}`)).toBeNull();
    }
    await expect(signInWithPassword(test.handle.sql, "GUESSED@members.example", password)).rejects.toBeInstanceOf(TooManySignInAttempts);
    expect(await signInWithPassword(test.handle.sql, "ada@members.example", password)).not.toBeNull();
  });

  it("forgets buckets that are full again, so guessed emails do not pile up", async () => {
    await test.handle.sql`insert into api_rate_limits (bucket, tat) values ('sign-in:old@members.example', now() - interval '1 second')`;
    await signInWithPassword(test.handle.sql, "fresh@members.example", "guess");
    await forgetSpentRateLimits(test.handle.sql);
    const buckets = await test.handle.sql<Array<{ bucket: string }>>`select bucket from api_rate_limits where bucket like 'sign-in:%'`;
    expect(buckets.map((row) => row.bucket)).toContain("sign-in:fresh@members.example");
    expect(buckets.map((row) => row.bucket)).not.toContain("sign-in:old@members.example");
  });
});

describe("every request reloads the member", () => {
  it("from the database: role, suspension and session version", async () => {
    const claims = (await signInWithPassword(test.handle.sql, "ada@members.example", password))!;
    expect(await loadMember(test.handle.sql, claims)).toMatchObject({ companyId, companyName: "Members Inc", role: "admin" });

    await test.ctx.db.update(users).set({ role: "member" }).where(eq(users.id, claims.userId));
    expect(await loadMember(test.handle.sql, claims)).toMatchObject({ role: "member" });

    await setCompanySuspended(test.ctx, companyId, true);
    expect(await loadMember(test.handle.sql, claims)).toBeNull();
    await setCompanySuspended(test.ctx, companyId, false);

    await test.ctx.db
      .update(users)
      .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, claims.userId));
    expect(await loadMember(test.handle.sql, claims)).toBeNull();
    expect(await loadMember(test.handle.sql, { userId: "user_gone", sessionVersion: 1 })).toBeNull();
  });
});
