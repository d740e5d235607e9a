export { ApiError, type ErrorCode, type Problem, unexpectedResponse } from "./api-error";
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
} from "./api-types";
export { type ClientOptions, createInterviewClient, type InterviewClient } from "./client";
export { type CursorStore, EventFollower, type FollowOptions, type FollowStart, memoryCursorStore } from "./events-follower";
export { fileCursorStore } from "./file-cursor-store";
export { ListenError, type ListenFlags, type ListenOutput, type ListenSummary, listenCommand, listenOptions } from "./listen";
export type { components, operations, paths } from "./openapi-types";
export type { RetryOptions } from "./rate-limit-retry";
export {
  type RawBody,
  signWebhook,
  type VerificationFailure,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
} from "./webhook-signatures";
