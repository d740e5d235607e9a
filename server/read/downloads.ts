/**
 * Download links: signed (server/security/download-tokens.ts), valid for 15
 * minutes, usable without the API key.
 */
import { extname } from "node:path";
import type postgres from "postgres";
import type { RecordingStatus } from "@/db/schema";
import { type DownloadTarget, signDownloadToken } from "@/server/security/download-tokens";
import { links } from "./links";

const downloadLifetimeMs = 15 * 60 * 1000;

function downloadLink(fileId: string, companyId: string, now: Date) {
  const expiresAt = new Date(now.getTime() + downloadLifetimeMs);
  const token = signDownloadToken({ fileId, companyId }, expiresAt);
  return { download_url: links.download(token), expires_at: expiresAt.toISOString() };
}

export type RecordingLookup =
  | { kind: "no_candidate" }
  | { kind: "unavailable"; status: RecordingStatus | null }
  | {
      kind: "ready";
      recording: { status: "ready"; content_type: string; duration_seconds: number | null; download_url: string; expires_at: string };
    };

export async function findRecording(sql: postgres.Sql, companyId: string, candidateId: string, now: Date): Promise<RecordingLookup> {
  const [row] = await sql<Array<{ recording_status: RecordingStatus | null; file_id: string | null; content_type: string | null; duration: number | null }>>`
    select c.recording_status, f.id as file_id, f.content_type, c.recording_duration_seconds as duration
    from candidates c
    left join files f on f.id = c.recording_file_id and f.deleted_at is null
    where c.id = ${candidateId} and c.company_id = ${companyId} and not c.is_preview`;
  if (!row) return { kind: "no_candidate" };
  if (row.recording_status !== "ready" || !row.file_id) return { kind: "unavailable", status: row.recording_status };
  return {
    kind: "ready",
    recording: {
      status: "ready",
      content_type: row.content_type ?? "application/octet-stream",
      duration_seconds: row.duration,
      ...downloadLink(row.file_id, companyId, now),
    },
  };
}

/** A document of a (non-preview) candidate of the company; recordings go through their own endpoint. */
export async function findDocument(sql: postgres.Sql, companyId: string, fileId: string, now: Date) {
  const [row] = await sql<Array<{ id: string; file_name: string; content_type: string | null; size_bytes: number | null }>>`
    select f.id, f.file_name, f.content_type, f.size_bytes
    from files f join candidates c on c.id = f.candidate_id
    where f.id = ${fileId} and f.company_id = ${companyId} and f.kind = 'document' and f.deleted_at is null and not c.is_preview`;
  if (!row) return null;
  return {
    id: row.id,
    name: row.file_name,
    content_type: row.content_type,
    size_bytes: row.size_bytes === null ? null : Number(row.size_bytes),
    ...downloadLink(row.id, companyId, now),
  };
}

/**
 * What a valid link serves: the stored bytes and how to describe them. A
 * recording is named after its candidate (`Ada Lovelace recording cand_….wav`):
 * recorders upload every one under the same few names, which would overwrite
 * each other in a downloads folder.
 */
export async function findDownloadable(sql: postgres.Sql, target: DownloadTarget) {
  const [row] = await sql<
    Array<{
      file_name: string;
      kind: string;
      candidate_id: string;
      candidate_name: string;
      content_type: string | null;
      storage_key: string;
      suspended: boolean;
    }>
  >`
    select f.file_name, f.kind, c.id as candidate_id, c.name as candidate_name, f.content_type, f.storage_key, co.suspended_at is not null as suspended
    from files f join companies co on co.id = f.company_id join candidates c on c.id = f.candidate_id
    where f.id = ${target.fileId} and f.company_id = ${target.companyId} and f.deleted_at is null`;
  if (!row) return null;
  const downloadName = row.kind === "recording" ? `${row.candidate_name} recording ${row.candidate_id}${extname(row.file_name)}` : row.file_name;
  return { content_type: row.content_type, storage_key: row.storage_key, suspended: row.suspended, download_name: downloadName };
}
