import type { candidates } from "@/db/schema";

export type CandidateRow = typeof candidates.$inferSelect;
