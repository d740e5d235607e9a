/**
 * What the settings answer about a webhook: its name and description (to
 * members too), a warning for a host name that does not resolve, how many
 * messages turning it off marked failed, and ending the previous secret early.
 */
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { webhookMessages, webhooks } from "@/db/schema";
import type { Member } from "@/server/auth/members";
import { submitAttempt } from "@/server/domain/attempts";
import type { LoadedInterview } from "@/server/domain/interviews";
import { listWebhooks } from "@/server/webhooks/admin/find-webhook";
import { sendSample } from "@/server/webhooks/admin/send-sample";
import { setWebhookEnabled } from "@/server/webhooks/admin/set-webhook-enabled";
import { expirePreviousSecret, revealWebhookSecret, rotateWebhookSecret } from "@/server/webhooks/admin/webhook-secret";
import { createWebhook, unresolvedHostWarning, updateWebhook } from "@/server/webhooks/admin/webhook-settings";
import type { Resolver } from "@/server/webhooks/delivery/delivery-client";
import { webhookOffReason } from "@/server/webhooks/delivery/unsent-reasons";
import { viewWebhooks } from "@/server/webhooks/views/webhook-view";
import { useTestDatabase } from "../support/database";
import { companyWithInterview, completeSteps, makeCompany, scoreAndRecord, startCandidate } from "../support/fixtures";
import { allowReceiver, pump, useWebhookTestbed, verifySignature } from "../support/webhook-fixtures";

const test = useTestDatabase();
const bed = useWebhookTestbed(test);
let companyId: string;
let interview: LoadedInterview;

beforeEach(async () => ({ companyId, interview } = await companyWithInterview(test.ctx)));

const memberOf = (company: string, role: Member["role"]): Member => ({
  userId: "user_x",
  companyId: company,
  companyName: "Acme",
  role,
  name: "Max",
  email: "max@example.com",
});

/** DNS answers the test decides; the resolver is the only outside part faked. */
const dnsError =
  (code: string): Resolver =>
  async (host) => {
    throw Object.assign(new Error(`getaddrinfo ${code} ${host}`), { code });
  };
const answers =
  (addresses: string[]): Resolver =>
  async () =>
    addresses;

describe("a webhook's name and description", () => {
  it("are saved trimmed, shown to admins and members alike (members still see the address masked), and cleared when emptied", async () => {
    const { id } = await createWebhook(
      test.ctx,
      companyId,
      { url: "https://hooks.example.com/in?token=private", name: "  ATS sync ", description: " Feeds the hiring board.\nAsk Ops. " },
      { allowTargets: [], resolver: answers(["93.184.216.34"]) },
    );
    const rows = await listWebhooks(test.ctx, companyId);
    const [admin] = await viewWebhooks(test.handle.sql, memberOf(companyId, "admin"), rows, test.clock.now());
    const [member] = await viewWebhooks(test.handle.sql, memberOf(companyId, "member"), rows, test.clock.now());
    expect(admin).toMatchObject({
      id,
      name: "ATS sync",
      description: "Feeds the hiring board.\nAsk Ops.",
      address: "https://hooks.example.com/in?token=private",
    });
    expect(member).toMatchObject({ id, name: "ATS sync", description: "Feeds the hiring board.\nAsk Ops.", address: "https://hooks.example.com/…" });

    await updateWebhook(test.ctx, companyId, id, { name: "", description: "   " }, { allowTargets: [] });
    const [cleared] = await test.ctx.db.select().from(webhooks).where(eq(webhooks.id, id));
    expect(cleared).toMatchObject({ name: null, description: null, url: "https://hooks.example.com/in?token=private" });
  });

  it("refuse a name over 80 or a description over 500 characters, with a clear message", async () => {
    const options = { allowTargets: [], resolver: answers(["93.184.216.34"]) };
    await expect(createWebhook(test.ctx, companyId, { url: "https://hooks.example.com/in", name: "x".repeat(81) }, options)).rejects.toThrow(
      "The name can be at most 80 characters.",
    );
    await expect(createWebhook(test.ctx, companyId, { url: "https://hooks.example.com/in", description: "x".repeat(501) }, options)).rejects.toThrow(
      "The description can be at most 500 characters.",
    );
    const { id } = await createWebhook(
      test.ctx,
      companyId,
      { url: "https://hooks.example.com/in", name: "x".repeat(80), description: "y".repeat(500) },
      options,
    );
    expect((await listWebhooks(test.ctx, companyId)).find((row) => row.id === id)).toMatchObject({ name: "x".repeat(80) });
  });
});

describe("an address whose host name does not resolve", () => {
  it("is saved with a warning when DNS says the name does not exist, and without one when DNS could not answer", async () => {
    const typo = { url: "https://hooks.example.con/in" };
    const notFound = await createWebhook(test.ctx, companyId, typo, { allowTargets: [], resolver: dnsError("ENOTFOUND") });
    expect(notFound.addressWarning).toBe(unresolvedHostWarning("hooks.example.con"));
    expect(notFound.addressWarning).toBe(
      "hooks.example.con does not resolve yet; messages will fail until it does. Check the address for a typo, or create the host name.",
    );
    expect(await listWebhooks(test.ctx, companyId)).toHaveLength(1);
    expect((await createWebhook(test.ctx, companyId, typo, { allowTargets: [], resolver: dnsError("ENODATA") })).addressWarning).toBe(
      unresolvedHostWarning("hooks.example.con"),
    );
    expect((await createWebhook(test.ctx, companyId, typo, { allowTargets: [], resolver: answers([]) })).addressWarning).toBe(
      unresolvedHostWarning("hooks.example.con"),
    );
    // A timeout or a temporary failure says nothing about the name.
    expect((await createWebhook(test.ctx, companyId, typo, { allowTargets: [], resolver: dnsError("EAI_AGAIN") })).addressWarning).toBeNull();
    expect((await createWebhook(test.ctx, companyId, typo, { allowTargets: [], resolver: dnsError("ETIMEOUT") })).addressWarning).toBeNull();
    // A resolver that never answers holds the save for 3 seconds at most.
    const hanging = { allowTargets: [], resolver: () => new Promise<string[]>(() => {}) };
    expect((await createWebhook(test.ctx, companyId, typo, hanging)).addressWarning).toBeNull();
    expect((await createWebhook(test.ctx, companyId, typo, { allowTargets: [], resolver: answers(["93.184.216.34"]) })).addressWarning).toBeNull();
  });

  it("is still refused when it resolves into a private network; allowed targets count as resolving", async () => {
    await expect(
      createWebhook(test.ctx, companyId, { url: "https://hooks.example.com/in" }, { allowTargets: [], resolver: answers(["10.0.0.7"]) }),
    ).rejects.toThrow("The address must use a public host name (hooks.example.com resolves to 10.0.0.7).");
    const allowed = await createWebhook(
      test.ctx,
      companyId,
      { url: "https://hooks.internal.test:8443/in" },
      {
        allowTargets: ["hooks.internal.test:8443"],
        resolver: dnsError("ENOTFOUND"),
      },
    );
    expect(allowed.addressWarning).toBeNull();
  });

  it("warns on update only when the address changes", async () => {
    const { id } = await createWebhook(
      test.ctx,
      companyId,
      { url: "https://hooks.example.com/in" },
      { allowTargets: [], resolver: answers(["93.184.216.34"]) },
    );
    const unresolved = { allowTargets: [], resolver: dnsError("ENOTFOUND") };
    expect(await updateWebhook(test.ctx, companyId, id, { url: "https://hooks.exmple.com/in" }, unresolved)).toEqual({
      customHeaders: null,
      addressWarning: unresolvedHostWarning("hooks.exmple.com"),
    });
    expect(await updateWebhook(test.ctx, companyId, id, { name: "Renamed" }, unresolved)).toEqual({ customHeaders: null, addressWarning: null });
  });
});

async function submitted(email: string) {
  const candidate = await startCandidate(test.ctx, interview.id, { email });
  await completeSteps(test.ctx, interview, candidate.id);
  await scoreAndRecord(test.ctx, candidate.id);
  await submitAttempt(test.ctx, candidate.id);
  return candidate;
}

describe("turning a webhook off", () => {
  it("marks its waiting messages failed and says how many; turning on marks none", async () => {
    const { id } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    bed.receiver.answer(() => ({ status: 500 }));
    await submitted("a@example.com");
    await submitted("b@example.com");
    await pump(bed.deps);
    const waiting = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.status, "pending"));
    expect(waiting).toHaveLength(6);
    expect(await setWebhookEnabled(test.ctx, companyId, id, false)).toEqual({ markedFailed: 6 });
    const after = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, id));
    expect(after.every((message) => message.status === "failed" && message.failureReason === webhookOffReason)).toBe(true);
    expect(await setWebhookEnabled(test.ctx, companyId, id, false)).toEqual({ markedFailed: 0 });
    expect(await setWebhookEnabled(test.ctx, companyId, id, true)).toEqual({ markedFailed: 0 });
  });
});

describe("stopping the previous secret early", () => {
  it("makes the next delivery carry one v1 signature, with the current secret", async () => {
    const { id } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    const old = await revealWebhookSecret(test.ctx, companyId, id);
    const { secret } = await rotateWebhookSecret(test.ctx, companyId, id);
    await sendSample(test.ctx, companyId, id, interview.id);
    await pump(bed.deps);
    const [during] = bed.receiver.received;
    const header = String(during!.headers["service-signature"]);
    expect(verifySignature(header, during!.body, secret)).toMatchObject({ valid: true, values: 2 });
    expect(verifySignature(header, during!.body, old).valid).toBe(true);

    await expirePreviousSecret(test.ctx, companyId, id);
    await sendSample(test.ctx, companyId, id, interview.id);
    await pump(bed.deps);
    const [, after] = bed.receiver.received;
    const afterHeader = String(after!.headers["service-signature"]);
    expect(verifySignature(afterHeader, after!.body, secret)).toMatchObject({ valid: true, values: 1 });
    expect(verifySignature(afterHeader, after!.body, old).valid).toBe(false);
    expect(String(after!.headers["webhook-signature"]).split(" ")).toHaveLength(1);

    await expect(expirePreviousSecret(test.ctx, companyId, id)).rejects.toThrow("The previous secret no longer signs messages.");
    await expect(expirePreviousSecret(test.ctx, await makeCompany(test.ctx, "Other"), id)).rejects.toThrow(/No webhook/);
  });
});
