/**
 * The API benchmark's baseline: a bare node:http server with the postgres
 * driver, running the same keyset queries and returning the same JSON as the
 * product, without auth, rate limiting, validation, tRPC or Next.js. It
 * reads as the product does: the same read services fetch the stored texts
 * and parse them, JSON.stringify writes the page.
 * Started as its own process: `tsx bench/baseline-server.ts PORT DATABASE_URL COMPANY_ID`.
 */
import { createServer } from "node:http";
import postgres from "postgres";
import { readCandidate, readCandidatePage } from "@/server/read/candidates";
import { readEventPage } from "@/server/read/events";

const [port, databaseUrl, companyId] = process.argv.slice(2) as [string, string, string];
const sql = postgres(databaseUrl, { max: 10, onnotice: () => {} });

const envelope = (data: unknown) => JSON.stringify({ success: true, data, timestamp: Math.floor(Date.now() / 1000), trace_id: "baseline" });

createServer(async (request, response) => {
  const url = new URL(request.url!, "http://baseline");
  const limit = Number(url.searchParams.get("limit") ?? 25);
  let body: string;
  const candidate = /^\/v1\/candidates\/([^/]+)$/.exec(url.pathname);
  if (url.pathname === "/v1/candidates") {
    const page = await readCandidatePage(sql, companyId, { state: "submitted" }, limit);
    body = envelope({ candidates: page.candidates, next_cursor: null });
  } else if (candidate) {
    body = envelope({ candidate: await readCandidate(sql, companyId, candidate[1]!) });
  } else if (url.pathname === "/v1/events") {
    const page = await readEventPage(sql, companyId, { limit });
    body = envelope({ events: page.events, next_cursor: "x", has_more: page.hasMore });
  } else {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { "Content-Type": "application/json" }).end(body);
}).listen(Number(port), "127.0.0.1", () => process.send?.("ready"));
