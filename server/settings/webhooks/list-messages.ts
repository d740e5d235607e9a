import { TRPCError } from "@trpc/server";
import { listMessages } from "@/server/webhooks/delivery-log";
import { getWebhook } from "@/server/webhooks/manage";
import { memberProcedure } from "../trpc";
import { listMessagesInput, listMessagesOutput } from "./delivery-log.types";
import { viewMessage } from "./message-view";

type Position = { createdAt: string; id: string };

const encodeCursor = (position: Position) => Buffer.from(JSON.stringify(position)).toString("base64url");

function decodeCursor(cursor: string): Position {
  try {
    const position = JSON.parse(Buffer.from(cursor, "base64url").toString());
    if (typeof position?.createdAt === "string" && typeof position?.id === "string") return position;
  } catch {
    // falls through to the refusal below
  }
  throw new TRPCError({ code: "BAD_REQUEST", message: "This page link is not valid any more; start from the first page." });
}

export const listMessagesProcedure = memberProcedure
  .input(listMessagesInput)
  .output(listMessagesOutput)
  .query(async ({ ctx, input }) => {
    await getWebhook(ctx.ctx, ctx.member.companyId, input.id);
    const { messages, next } = await listMessages(
      ctx.sql,
      ctx.member.companyId,
      input.id,
      {
        status: input.status,
        eventType: input.eventType,
        candidateId: input.candidateId,
        from: input.from ? new Date(input.from) : undefined,
        to: input.to ? new Date(input.to) : undefined,
        before: input.cursor ? decodeCursor(input.cursor) : undefined,
        limit: input.limit,
      },
      ctx.ctx.clock.now(),
    );
    return { messages: messages.map(viewMessage), nextCursor: next ? encodeCursor(next) : null };
  });
