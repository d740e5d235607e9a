import type { CandidateStatus } from "@/db/schema";
import { type CursorKind, decodeCursor, encodeCursor } from "@/server/security/cursors";
import { ApiError } from "@/server/api/errors";
import { apiProcedure, ok } from "@/server/api/trpc";
import { type CandidatePosition, listCandidates as readCandidates } from "@/server/read/candidates";
import { listCandidatesInput, listCandidatesMeta, listCandidatesOutput } from "./list-candidates.types";
import { splitList, utcDateTime } from "./query-params";

export const listCandidates = apiProcedure
  .meta(listCandidatesMeta)
  .input(listCandidatesInput)
  .output(listCandidatesOutput)
  .query(async ({ ctx, input }) => {
    const companyId = ctx.caller.company.id;
    const kind: CursorKind = input.state === "submitted" ? "candidates:submitted" : "candidates:started";
    let after: CandidatePosition | undefined;
    if (input.cursor) {
      const check = decodeCursor<CandidatePosition>([kind], companyId, input.cursor);
      if (!check.ok) {
        throw new ApiError("validation_error", "The query is not valid.", {
          details: { problems: [{ parameter: "cursor", code: "invalid_cursor", message: `belongs to another state's ordering than state=${input.state}` }] },
        });
      }
      after = check.position;
    }
    const page = await readCandidates(
      ctx.sql,
      companyId,
      {
        state: input.state,
        interviewId: input.interview_id,
        statuses: input.status ? (splitList(input.status) as CandidateStatus[]) : undefined,
        submittedAfter: input.submitted_after && utcDateTime(input.submitted_after),
        submittedBefore: input.submitted_before && utcDateTime(input.submitted_before),
      },
      input.limit,
      after,
    );
    return ok(ctx, { candidates: page.candidates, next_cursor: page.next ? encodeCursor(kind, companyId, page.next) : null });
  });
