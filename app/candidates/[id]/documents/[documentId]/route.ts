import { appDatabase } from "@/server/app-database";
import { requireMember } from "@/server/auth/session";
import { findDocument } from "@/server/read/downloads";
import { holdsNoNul } from "@/server/read/stored-values";
import { redirectToDownload } from "../../download-redirect";

export const dynamic = "force-dynamic";

/** One of the candidate's documents, through a download link signed now (see ../../download-redirect.ts). */
export async function GET(_request: Request, { params }: { params: Promise<{ documentId: string }> }) {
  const member = await requireMember();
  // Any document of the member's company: what a member may read does not depend on the candidate in the path.
  const { documentId } = await params;
  const document = holdsNoNul(documentId) ? await findDocument(appDatabase().sql, member.companyId, documentId, new Date()) : null;
  return redirectToDownload(document?.download_url ?? null);
}
