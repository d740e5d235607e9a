import { appDatabase } from "@/server/app-database";
import { requireMember } from "@/server/auth/session";
import { findRecording } from "@/server/read/downloads";
import { holdsNoNul } from "@/server/read/stored-values";
import { redirectToDownload } from "../download-redirect";

export const dynamic = "force-dynamic";

/** The candidate's recording, through a download link signed now (see ../download-redirect.ts). */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const member = await requireMember();
  const { id } = await params;
  const recording = holdsNoNul(id) ? await findRecording(appDatabase().sql, member.companyId, id, new Date()) : null;
  return redirectToDownload(recording?.kind === "ready" ? recording.recording.download_url : null);
}
