import { notFound } from "@/server/domain/errors";
import { getMessage, listAttempts } from "@/server/webhooks/views/delivery-log";
import { viewAttempt, viewMessage } from "@/server/webhooks/views/message-view";
import { signedInProcedure } from "../trpc";
import { getMessageInput, getMessageOutput } from "./get-message.types";

/** One message and its attempts; the page polls it to show a sample's or a resend's outcome. */
export const getMessageProcedure = signedInProcedure
  .input(getMessageInput)
  .output(getMessageOutput)
  .query(async ({ ctx, input }) => {
    const message = await getMessage(ctx.sql, ctx.member.companyId, input.messageId);
    if (!message) throw notFound("message", input.messageId);
    const attempts = await listAttempts(ctx.sql, ctx.member.companyId, message);
    return { message: viewMessage(message), attempts: attempts.map((attempt) => viewAttempt(attempt, ctx.member)) };
  });
