/**
 * The candidate page's download links lead here rather than to a signed link:
 * a page can stay open longer than a signed link lives (15 minutes), so the
 * link is signed when it is followed, for the member who follows it, and the
 * browser is sent on to it. An audio player follows the same way.
 */
export function redirectToDownload(downloadUrl: string | null): Response {
  if (!downloadUrl) {
    return new Response("This file is no longer available. Go back to the candidate's page and reload it to see what is there now.\n", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return new Response(null, { status: 303, headers: { Location: downloadUrl, "Cache-Control": "no-store" } });
}

/** Where the page links to: the candidate's recording, or one of their documents. */
export const candidateDownloadPaths = {
  recording: (candidateId: string) => `/candidates/${encodeURIComponent(candidateId)}/recording`,
  document: (candidateId: string, documentId: string) => `/candidates/${encodeURIComponent(candidateId)}/documents/${encodeURIComponent(documentId)}`,
};
