/** Short names for the generated types that calls take and return. */
import type { components, operations } from "./openapi-types.js";

type Schemas = components["schemas"];
export type Me = Schemas["Me"];
export type Interview = Schemas["Interview"];
export type Candidate = Schemas["Candidate"];
export type TranscriptEntry = Schemas["TranscriptEntry"];
export type RecordingDownload = Schemas["RecordingDownload"];
export type FileDownload = Schemas["FileDownload"];
export type Event = Schemas["Event"];

type Query<Operation extends keyof operations> = NonNullable<operations[Operation]["parameters"]["query"]>;
export type InterviewQuery = Query<"listInterviews">;
export type CandidateQuery = Query<"listCandidates">;
export type EventQuery = Query<"listEvents">;
export type EventPage = operations["listEvents"]["responses"][200]["content"]["application/json"]["data"];

/** Per call: an `AbortSignal` stops the request and any wait for a rate-limit retry. */
export type CallOptions = { signal?: AbortSignal };
