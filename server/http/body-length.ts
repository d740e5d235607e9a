/**
 * Next.js drops the `Content-Length` a route handler sets (its send-response
 * forwards no framing headers, since a fetched body may have been decoded on
 * the way). A route that knows its body's exact length (a download) names it
 * in this header instead, and the web server's edge (server/runtime/web/server.ts)
 * turns it back into `Content-Length` as the answer's head is written, so
 * browsers show a download's size and progress.
 */
export const bodyLengthHeader = "x-body-length";
