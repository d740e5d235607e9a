import { TRPCError } from "@trpc/server";
import { decodeCursor, encodeCursor, positionFor } from "@/server/security/cursors";
import { assertOwnsWebhook } from "@/server/webhooks/admin/find-webhook";
import { type LogPosition, listMessages } from "@/server/webhooks/views/delivery-log";
import { viewMessage } from "@/server/webhooks/views/message-view";
import { signedInProcedure } from "../trpc";
import { listMessagesInput, listMessagesOutput } from "./list-messages.types";

function positionOf(companyId: string, token: string): LogPosition {
  const decoded = decodeCursor<LogPosition>(["webhook-messages"], token);
  const owned = decoded.ok ? positionFor(decoded.value, companyId) : decoded;
  // A cursor sealed before the log was ordered by seq holds an id instead: it is from another ordering.
  const check = owned.ok && !/^\d+$/.test(String(owned.value.seq)) ? { ok: false as const, reason: "is from an older ordering of the log" } : owned;
  if (!check.ok)
    throw new TRPCError({ code: "BAD_REQUEST", message: `This page of the log cannot be found (the cursor ${check.reason}); start from the first page.` });
  return check.value;
}

export const listMessagesProcedure = signedInProcedure
  .input(listMessagesInput)
  .output(listMessagesOutput)
  .query(async ({ ctx, input }) => {
    await assertOwnsWebhook(ctx.domain, ctx.member.companyId, input.id);
    const { messages, next } = await listMessages(
      ctx.sql,
      ctx.member.companyId,
      input.id,
      {
        status: input.status,
        eventType: input.eventType,
        search: input.search,
        from: input.from ? new Date(input.from) : undefined,
        to: input.to ? new Date(input.to) : undefined,
        before: input.cursor ? positionOf(ctx.member.companyId, input.cursor) : undefined,
        limit: input.limit,
      },
      ctx.domain.clock.now(),
    );
    return { messages: messages.map(viewMessage), nextCursor: next ? encodeCursor("webhook-messages", ctx.member.companyId, next) : null };
  });
