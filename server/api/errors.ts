/**
 * The errors of the API's own procedures, built on the one `ApiError`
 * (server/http/api-error.ts), with the spec's error codes only.
 */
import { ApiError } from "@/server/http/api-error";
import { sampleCandidateId, sampleCandidateName } from "@/server/sample-candidate";

/** One invalid query parameter, as listed in `details.problems` of a 422. */
export type Problem = { parameter: string; code: string; message: string };

/** A 422 listing every invalid query parameter. */
export const invalidQuery = (problems: Problem[]) => new ApiError("validation_error", "The query is not valid.", { details: { problems } });

export const notFound = (what: string, id: string) => new ApiError("not_found", `No ${what} with id ${id} was found.`);

/** An unknown candidate; the sample messages' made-up one says what it is, since a receiver trying its handler on a sample may follow the sample's links. */
export const candidateNotFound = (id: string) =>
  id === sampleCandidateId
    ? new ApiError("not_found", `${id} is the made-up candidate of sample webhook messages (${sampleCandidateName}); it has no record in the API.`)
    : notFound("candidate", id);
