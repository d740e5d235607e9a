/**
 * The web process: a node:http server of our own that serves the API (/v1)
 * itself, straight from its request path (server/api/http/v1-handler.ts), and
 * everything else through Next.js's request handler (the same router server
 * `next start` and `next dev` run): pages, /api/auth, /api/trpc, /docs and
 * /downloads. Its edge answers what would otherwise never reach a route, or
 * reach it broken:
 *
 * - A method Next.js cannot turn into a `Request` (TRACE, which undici
 *   refuses, and anything else outside the seven a route can export) gets 405
 *   with `Allow: GET` and, under /v1 and /downloads, the API's envelope;
 *   Next.js would answer TRACE with a 500. CONNECT, which Node hands to a
 *   listener of its own, gets the same.
 * - A path segment with a malformed percent-escape (`/v1/files/%zz`) is passed
 *   on as the literal text it is (`%` becomes `%25`), so /v1 answers it like
 *   any unknown id or path; Next.js answers it with a 500 (in `next dev` also
 *   after a rewrite from the proxy, so it is done here, before routing).
 * - What Node's parser refuses before there is a request (headers and address
 *   over 16 KiB: 431; not HTTP: 400; too slow: 408) gets the envelope too
 *   instead of a bare status line.
 * - A POST, PUT, PATCH or DELETE that a page of another site sent (its
 *   `Origin`, server/security/same-site.ts) gets 403 with the envelope: the
 *   settings' tRPC mutations and next-auth's sign-in and sign-out, and
 *   anything cookie-authenticated added later. The API (/v1, /downloads)
 *   takes keys, not cookies, and answers those methods with 405 anyway.
 *
 * - A route's `Content-Length`, which Next.js drops, is put back from the
 *   header the route named it in (server/http/body-length.ts).
 *
 * Every answer, whoever writes it, carries the security headers
 * (server/security/security-headers.ts), set here before Next.js sees the
 * request; the Content-Security-Policy goes on the request too, for Next.js
 * to read a page's script nonce from.
 *
 * Usage: `tsx server/runtime/web/server.ts <dev|start> --port <port> --hostname <host>`.
 */
import { createServer, type IncomingMessage, maxHeaderSize, type ServerResponse, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { parseArgs } from "node:util";
import type { Answer } from "@/server/http/answer";
import { ApiError, errorResponse, methodNotAllowed, newTraceId } from "@/server/http/api-error";
import { bodyLengthHeader } from "@/server/http/body-length";
import { isFromThisSite } from "@/server/security/same-site";
import { contentSecurityPolicy, nonPagePolicy, securityHeaders } from "@/server/security/security-headers";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { port: { type: "string" }, hostname: { type: "string" } },
});
const mode = positionals[0];
if ((mode !== "dev" && mode !== "start") || !values.port || !values.hostname) {
  process.stderr.write("usage: server.ts <dev|start> --port <port> --hostname <host>\n");
  process.exit(2);
}
const dev = mode === "dev";
const port = Number(values.port);
const hostname = values.hostname;
// As `next dev` and `next start` do, before Next.js is loaded.
Object.assign(process.env, { NODE_ENV: dev ? "development" : "production" });

/** The methods an App Router route can export; Next.js builds a `Request` only for these. */
const routeMethods = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"]);
/** The methods that change something, which only this site's pages may send. */
const changingMethods = new Set(["POST", "PUT", "DELETE", "PATCH"]);
const apiPath = /^\/(v1|downloads)(\/|\?|$)/;
const v1Path = /^\/v1(\/|\?|$)/;

const apiError = (error: ApiError): Answer => errorResponse(error, newTraceId());

const crossSiteRequest = () =>
  apiError(new ApiError("permission_denied", "Changes are accepted only from this site's own pages, as the request's Origin (or Sec-Fetch-Site) shows."));

function unroutableMethod(url: string | undefined): Answer {
  if (apiPath.test(url ?? "")) return apiError(methodNotAllowed());
  return { status: 405, headers: { "Content-Type": "text/plain; charset=utf-8", Allow: "GET, HEAD, POST" }, body: "Method Not Allowed\n" };
}

const refused = (status: number, message: string) => apiError(new ApiError("validation_error", message, { status }));

/** What Node's parser refused, by its error code (`clientError`), answered with the statuses Node's own handler uses. */
function refusedRequest(code: string | undefined): Answer {
  if (code === "HPE_HEADER_OVERFLOW") {
    const limit = `${Math.floor(maxHeaderSize / 1024)} KiB`;
    return refused(431, `The request's address and headers are larger than the ${limit} this server accepts. Send a shorter address.`);
  }
  if (code === "HPE_CHUNK_EXTENSIONS_OVERFLOW") return refused(413, "The request's chunk extensions are too large.");
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return refused(408, "The request did not arrive in time.");
  return refused(400, "The request is not valid HTTP/1.1.");
}

const decodes = (segment: string) => {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
};

/** The request's target with every malformed percent-escape of its path taken literally. */
function withLiteralPercents(target: string): string {
  if (!target.includes("%")) return target;
  const queryStart = target.indexOf("?");
  const path = queryStart === -1 ? target : target.slice(0, queryStart);
  const segments = path.split("/");
  if (segments.every(decodes)) return target;
  const literal = segments.map((segment) => (decodes(segment) ? segment : segment.replaceAll("%", "%25"))).join("/");
  return queryStart === -1 ? literal : literal + target.slice(queryStart);
}

function send(response: ServerResponse, answer: Answer) {
  response.writeHead(answer.status, { ...answer.headers, "Content-Length": Buffer.byteLength(answer.body) });
  response.end(answer.body);
}

/** Each connection's answers from their request until written (for sendOnSocket). */
const answersUnderWay = new WeakMap<Duplex, Set<ServerResponse>>();

function trackAnswer(request: IncomingMessage, response: ServerResponse) {
  const answers = answersUnderWay.get(request.socket) ?? new Set<ServerResponse>();
  answersUnderWay.set(request.socket, answers.add(response));
  const written = () => answers.delete(response);
  response.once("finish", written).once("close", written);
}

/**
 * Writes an answer straight to a socket that has no `ServerResponse` of its
 * own (a refused or CONNECT request), then closes it; the server keeps
 * sockets half-open, so it is destroyed once written. Not while an earlier
 * answer on the same connection is still being sent (a bad request pipelined
 * behind a good one): its bytes would land inside that answer's body.
 */
function sendOnSocket(socket: Duplex, answer: Answer) {
  if (!socket.writable || [...(answersUnderWay.get(socket) ?? [])].some((earlier) => earlier.headersSent)) return socket.destroy();
  const all = { ...answerSecurityHeaders, "Content-Security-Policy": nonPagePolicy, ...answer.headers };
  const headers = Object.entries({ ...all, "Content-Length": String(Buffer.byteLength(answer.body)), Connection: "close" })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  socket.end(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${headers}\r\n${answer.body}`, () => socket.destroy());
}

// Loaded once NODE_ENV is set: the configuration (read by the log) depends on it.
const { log } = await import("@/server/log");
const { env } = await import("@/server/env");
const appOrigin = new URL(env.APP_URL).origin;
const answerSecurityHeaders = securityHeaders(appOrigin.startsWith("https:"));
const { serveV1 } = await import("@/server/api/http/v1-handler");
const { default: next } = await import("next");
const app = next({ dev, hostname, port, dir: process.cwd() });
const handle = app.getRequestHandler();
await app.prepare();
// The first requests already decide on the database's clock (server/app-database.ts).
if (env.DATABASE_URL) await (await import("@/server/app-database")).appClock().ready;

/**
 * Sets the security headers on the answer (a route's own header of the same
 * name replaces ours), and the policy on the request, over anything the
 * client sent under that name (Next.js would take its nonce otherwise).
 */
function secure(request: IncomingMessage, response: ServerResponse) {
  const policy = contentSecurityPolicy(request.url ?? "/", dev);
  for (const [name, value] of Object.entries(answerSecurityHeaders)) response.setHeader(name, value);
  response.setHeader("Content-Security-Policy", policy);
  request.headers["content-security-policy"] = policy;
  delete request.headers["content-security-policy-report-only"];
}

/** Turns a route's body length back into `Content-Length` when the head is written (Node writes it through `writeHead`, also implicitly). */
function keepBodyLength(response: ServerResponse) {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
    const length = this.getHeader(bodyLengthHeader);
    if (length !== undefined) {
      this.removeHeader(bodyLengthHeader);
      this.setHeader("Content-Length", length);
    }
    return writeHead.apply(this, args);
  } as typeof writeHead;
}

const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  trackAnswer(request, response);
  secure(request, response);
  keepBodyLength(response);
  if (!routeMethods.has(request.method ?? "")) return send(response, unroutableMethod(request.url));
  if (changingMethods.has(request.method!) && !apiPath.test(request.url ?? "") && !isFromThisSite(request.headers, appOrigin)) {
    return send(response, crossSiteRequest());
  }
  if (request.url) request.url = withLiteralPercents(request.url);
  if (v1Path.test(request.url ?? "")) {
    return void serveV1(request, response).catch((error: unknown) => failed(request, response, error));
  }
  // Next.js answers its routes' failures itself; this is for its own, as `next start` does.
  handle(request, response).catch((error: unknown) => failed(request, response, error));
});

/** A request whose handler failed outside any route's own error handling. */
function failed(request: IncomingMessage, response: ServerResponse, error: unknown) {
  log.error("web request failed", { method: request.method, path: request.url?.split("?")[0], error });
  if (response.headersSent) return response.destroy();
  send(response, { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8" }, body: "Internal Server Error\n" });
}
server.on("connect", (request: IncomingMessage, socket: Duplex) => {
  // Node takes its own error listener off a CONNECT's socket before handing it over.
  socket.on("error", () => socket.destroy());
  sendOnSocket(socket, unroutableMethod(request.url));
});
server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
  if (error.code === "ECONNRESET") return socket.destroy();
  sendOnSocket(socket, refusedRequest(error.code));
});
// Next.js logs uncaught exceptions and carries on, so a port already taken must end the process here, as `next start` does.
server.on("error", (error: NodeJS.ErrnoException) => {
  log.error("web server failed", { port, hostname, code: error.code, error });
  process.exit(1);
});
server.listen(port, hostname, () => log.info("web server ready", { url: `http://${hostname}:${port}`, mode }));

// Requests under way are answered before the process ends (idle keep-alive
// connections close at once), for at most 8 seconds: main.ts kills the
// process after 10. In development the dev tools' websockets would hold the
// server open, so every connection is closed at once.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    setTimeout(() => process.exit(0), 8_000).unref();
    const closed = new Promise((resolve) => server.close(resolve));
    if (dev) server.closeAllConnections();
    void (dev ? app.close() : closed.then(() => app.close())).finally(() => process.exit(0));
  });
}
