/**
 * A company whose people typed the longest values the settings forms accept
 * (the forms' own zod limits), in the shapes that break layouts: names with no
 * space to wrap at, a description holding a long URL, an address at its
 * length limit. The layout test and the screenshot script share it.
 */
import { createApiKey, createUser } from "@/server/domain/accounts";
import { finishAiInterview, startAiInterview } from "@/server/domain/ai-interview";
import { saveAnswers, startAttempt, submitAttempt, uploadDocument } from "@/server/domain/attempts";
import type { DomainContext } from "@/server/domain/context";
import { maxApiKeyNameLength } from "@/server/settings/api-keys/create-api-key.types";
import { maxAddressLength } from "@/server/webhooks/admin/address";
import { maxDescriptionLength, maxNameLength } from "@/server/webhooks/admin/settings-schema";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { makeCompany, makeInterview, scoreAndRecord } from "./fixtures";

/** `text` repeated and cut to exactly `length` characters. */
const filled = (text: string, length: number) => text.repeat(Math.ceil(length / text.length)).slice(0, length);

const addressStart = "https://hooks.example-recruiting-platform.com/in?token=";
/** No hyphen or space: nothing a browser would wrap at on its own. */
const longUrl = `https://wiki.example.com/runbooks/webhooks?page=${filled("InterviewApiReceiverRunbook", 180)}`;

export const longValues = {
  /** One word (no hyphen) as long as the form allows, as a pasted identifier would be. */
  apiKeyName: filled("ats_sync_production_eu_west_1_", maxApiKeyNameLength),
  /** As long as allowed, with spaces. */
  apiKeyNameWithSpaces: filled("Nightly export to the data warehouse for finance ", maxApiKeyNameLength).trim(),
  webhookName: filled("Greenhouse_ATS_production_receiver_", maxNameLength),
  webhookDescription: filled(`Sends to our ATS; runbook at ${longUrl} `, maxDescriptionLength).trim(),
  webhookAddress: addressStart + filled("a1b2c3d4", maxAddressLength - addressStart.length),
  documentName: `${filled("Curriculum_Vitae_Maximiliane_Wolfeschlegelsteinhausen_", 200)}.pdf`,
};

export const longValuesAdmin = { email: "ada@long-values.example", password: "correct horse battery staple" };

/** The company, its admin, two keys and two webhooks with long values, and a submitted candidate with a recording and a document. */
export async function seedLongValues(ctx: DomainContext) {
  const companyId = await makeCompany(ctx, "Long Values GmbH");
  await createUser(ctx, { companyId, email: longValuesAdmin.email, name: "Ada Admin", role: "admin", password: longValuesAdmin.password });
  await createApiKey(ctx, { companyId, name: longValues.apiKeyName });
  await createApiKey(ctx, { companyId, name: longValues.apiKeyNameWithSpaces });
  const addresses = { allowTargets: [] };
  const longWebhook = await createWebhook(
    ctx,
    companyId,
    { url: longValues.webhookAddress, name: longValues.webhookName, description: longValues.webhookDescription },
    addresses,
  );
  await createWebhook(ctx, companyId, { url: "https://hooks.example.com/interviews", description: `Runbook: ${longUrl}` }, addresses);
  const interview = await makeInterview(ctx, companyId);
  const candidate = await startAttempt(ctx, { interviewId: interview.id, name: "Maximiliane Wolfeschlegelsteinhausen", email: "max@example.com" });
  const [why, phone] = interview.questions;
  await saveAnswers(ctx, candidate.id, { [why!.id]: "Because I like helping people.", [phone!.id]: "Yes" });
  await uploadDocument(ctx, candidate.id, { fileName: longValues.documentName, contentType: "application/pdf", bytes: Buffer.from("%PDF-1.4") });
  await startAiInterview(ctx, candidate.id);
  await finishAiInterview(ctx, candidate.id, {
    transcript: [{ question: "Tell me about you.", answer: "I like people.", speakingSeconds: 40 }],
    durationSeconds: 300,
    questionsAsked: 1,
  });
  await scoreAndRecord(ctx, candidate.id);
  await submitAttempt(ctx, candidate.id);
  return { companyId, webhookId: longWebhook.id, candidateId: candidate.id };
}
