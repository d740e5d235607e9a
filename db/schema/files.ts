import { sql } from "drizzle-orm";
import { bigint, index, pgTable, text } from "drizzle-orm/pg-core";
import { candidates } from "./candidates";
import { companyId, createdAt, idColumn, time } from "./columns";

export const fileKinds = ["document", "recording"] as const;

/** Candidate documents and AI-interview recordings; the bytes live in file storage. */
export const files = pgTable(
  "files",
  {
    id: idColumn(),
    companyId: companyId(),
    candidateId: text("candidate_id")
      .notNull()
      .references(() => candidates.id),
    kind: text("kind", { enum: fileKinds }).notNull(),
    /** For documents, what the interview asked for. */
    label: text("label"),
    fileName: text("file_name").notNull(),
    contentType: text("content_type"),
    sizeBytes: bigint("size_bytes", { mode: "number" }),
    storageKey: text("storage_key").notNull(),
    createdAt: createdAt(),
    deletedAt: time("deleted_at"),
  },
  (table) => [index("files_candidate_idx").on(table.candidateId, table.createdAt).where(sql`${table.deletedAt} is null`)],
);
