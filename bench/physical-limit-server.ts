/**
 * The API benchmark's physical limit: a bare node:http server with the postgres
 * driver that answers each path with the very bytes the product answered it
 * with, stored in a table (`bench_pages`), by one indexed read. No admission,
 * no parsing, no rendering, no serialising: what this machine can serve
 * through one database read per request.
 * Started as its own process: `tsx bench/physical-limit-server.ts PORT DATABASE_URL`.
 */
import { createServer } from "node:http";
import postgres from "postgres";

const [port, databaseUrl] = process.argv.slice(2) as [string, string];
const sql = postgres(databaseUrl, { max: 10, onnotice: () => {} });

createServer(async (request, response) => {
  const [page] = await sql<[{ body: string }?]>`select body from bench_pages where path = ${request.url!}`;
  if (!page) return void response.writeHead(404).end();
  response.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(page.body) }).end(page.body);
}).listen(Number(port), "127.0.0.1", () => process.send?.("ready"));
