/** Sending a sample event (`test: true`) to a webhook. */
import type { EventType } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { enqueueMessages } from "../delivery/queue";
import { findWebhookThatIsOn } from "./find-webhook";
import { sampleEventBody } from "./sample";

/** An event of `type` about a made-up candidate for one of the company's interviews, sent with `test: true`. */
export async function sendSample(ctx: DomainContext, companyId: string, webhookId: string, interviewId: string, type: EventType = "candidate.ready") {
  return ctx.db.transaction(async (tx) => {
    await findWebhookThatIsOn(tx, companyId, webhookId, "sending a sample");
    const eventId = ctx.newId("event");
    const body = await sampleEventBody(tx, companyId, interviewId, type, eventId, ctx.clock.now());
    const sample = {
      id: ctx.newId("message"),
      companyId,
      webhookId,
      origin: "sample" as const,
      eventId,
      eventType: type,
      candidateId: null,
      isTest: true,
      sampleBody: body,
      event: null,
    };
    await enqueueMessages(tx, [sample], ctx.clock.now());
    return { messageId: sample.id, eventId };
  });
}
