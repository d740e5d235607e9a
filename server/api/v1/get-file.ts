import { notFound } from "@/server/api/errors";
import { apiProcedure, ok } from "@/server/api/trpc";
import { findDocument } from "@/server/read/downloads";
import { getFileInput, getFileMeta, getFileOutput } from "./get-file.types";

export const getFile = apiProcedure
  .meta(getFileMeta)
  .input(getFileInput)
  .output(getFileOutput)
  .query(async ({ ctx, input }) => {
    const { caller } = ctx;
    const file = await findDocument(ctx.sql, caller.company.id, input.id, ctx.clock.now());
    if (!file) throw notFound("file", input.id);
    return ok(ctx, { file });
  });
