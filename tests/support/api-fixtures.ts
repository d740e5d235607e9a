/** A company with a key and candidates in the states the API tests need, all made through the domain. */
import { createApiKey, createUser } from "@/server/domain/accounts";
import { submitAttempt } from "@/server/domain/attempts";
import type { DomainContext } from "@/server/domain/context";
import { completeSteps, makeCompany, makeInterview, scoreAndRecord, startCandidate } from "./fixtures";

export async function apiCompany(ctx: DomainContext, name = "Acme") {
  const companyId = await makeCompany(ctx, name);
  const { id: keyId, key } = await createApiKey(ctx, { companyId, name: "Tests" });
  const interview = await makeInterview(ctx, companyId);
  const submitted = await startCandidate(ctx, interview.id, { email: `done@${name.toLowerCase()}.example` });
  await completeSteps(ctx, interview, submitted.id);
  await scoreAndRecord(ctx, submitted.id);
  await submitAttempt(ctx, submitted.id);
  const inProgress = await startCandidate(ctx, interview.id, { email: `busy@${name.toLowerCase()}.example` });
  const { id: userId } = await createUser(ctx, {
    companyId,
    email: `member@${name.toLowerCase()}.example`,
    name: "Member",
    role: "member",
    password: "long enough password",
  });
  const preview = await startCandidate(ctx, interview.id, { previewByUserId: userId });
  await completeSteps(ctx, interview, preview.id);
  await submitAttempt(ctx, preview.id);
  return { companyId, keyId, key, interview, submitted, inProgress, preview };
}

export type ApiCompany = Awaited<ReturnType<typeof apiCompany>>;
