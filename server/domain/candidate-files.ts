/**
 * A candidate's file (a document upload, an AI-interview recording): its bytes
 * in file storage and its `files` row, written inside the candidate change
 * that references it.
 */
import { type fileKinds, files } from "@/db/schema";
import type { Transaction } from "./candidate-changes";
import type { CandidateRow } from "./candidate-row";
import type { DomainContext } from "./context";

export type UploadInput = { fileName: string; contentType: string | null; bytes: Uint8Array };

export type CandidateFile = {
  id: string;
  kind: (typeof fileKinds)[number];
  /** For documents, what the interview asked for. */
  label?: string;
  upload: UploadInput;
};

export async function storeCandidateFile(ctx: DomainContext, tx: Transaction, candidate: CandidateRow, file: CandidateFile, now: Date) {
  const storageKey = `${candidate.companyId}/${file.id}`;
  // Bytes first: a failed transaction leaves an unreferenced file, never a row without bytes.
  await ctx.storage.put(storageKey, file.upload.bytes);
  await tx.insert(files).values({
    id: file.id,
    companyId: candidate.companyId,
    candidateId: candidate.id,
    kind: file.kind,
    label: file.label,
    fileName: file.upload.fileName,
    contentType: file.upload.contentType,
    sizeBytes: file.upload.bytes.byteLength,
    storageKey,
    createdAt: now,
  });
}
