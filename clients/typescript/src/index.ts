export { ApiError, type ErrorCode, explainApiError, type Problem, unexpectedResponse } from "./api-error.js";
export type {
  CallOptions,
  Candidate,
  CandidateQuery,
  Event,
  EventPage,
  EventQuery,
  FileDownload,
  Interview,
  InterviewQuery,
  Me,
  RecordingDownload,
  TranscriptEntry,
} from "./api-types.js";
export { type ClientOptions, createInterviewClient, type InterviewClient } from "./client.js";
export { type CursorStore, EventFollower, type FollowOptions, type FollowStart, memoryCursorStore } from "./events-follower.js";
export { fileCursorStore } from "./file-cursor-store.js";
export { ListenError, type ListenFlags, type ListenOutput, type ListenSummary, listenCommand, listenOptions } from "./listen.js";
export type { components, operations, paths } from "./openapi-types.js";
export type { RetryOptions } from "./rate-limit-retry.js";
export {
  type RawBody,
  signWebhook,
  type VerificationFailure,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
} from "./webhook-signatures.js";
