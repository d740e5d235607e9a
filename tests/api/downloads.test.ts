/** Recording and file endpoints, and the signed 15-minute download links they return. */
import { connect } from "node:net";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { files } from "@/db/schema";
import { createApiKey, createUser, setCompanySuspended } from "@/server/domain/accounts";
import { deleteRecording, loseRecording, saveScore, startAiInterview, storeRecording } from "@/server/domain/ai-interview";
import { submitAttempt } from "@/server/domain/attempts";
import { readDownloadToken } from "@/server/security/download-tokens";
import { seal } from "@/server/security/signing";
import { useTestDatabase } from "../support/database";
import { completeSteps, makeCompany, makeInterview, score, startCandidate } from "../support/fixtures";
import { signInOverHttp } from "../support/http-sign-in";
import { callApi, useTestServer } from "../support/server";

const test = useTestDatabase();
const server = useTestServer(test);
const bytes = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 251));
let companyId: string;
let key: string;
let interview: Awaited<ReturnType<typeof makeInterview>>;

beforeAll(async () => {
  companyId = await makeCompany(test.ctx, "Media");
  key = (await createApiKey(test.ctx, { companyId, name: "k" })).key;
  interview = await makeInterview(test.ctx, companyId);
  await createUser(test.ctx, { companyId, email: "ada@media.example", name: "Ada Admin", role: "admin", password });
});

const password = "correct horse battery staple";

async function candidateWithRecording(outcome: "ready" | "failed" | "none" | "processing" | "deleted") {
  const candidate = await startCandidate(test.ctx, interview.id, { email: `${outcome}-${Math.random()}@example.com` });
  await completeSteps(test.ctx, interview, candidate.id);
  await saveScore(test.ctx, candidate.id, score());
  if (outcome === "ready" || outcome === "deleted") {
    await storeRecording(test.ctx, candidate.id, { fileName: "Interview – Ada.wav", contentType: "audio/wav", bytes, durationSeconds: 321 });
  }
  if (outcome === "failed" || outcome === "none") await loseRecording(test.ctx, candidate.id, outcome);
  if (outcome === "deleted") await deleteRecording(test.ctx, candidate.id);
  await submitAttempt(test.ctx, candidate.id);
  return candidate.id;
}

const get = (path: string) => callApi(server, path, { key });

describe("GET /candidates/{id}/recording", () => {
  it("returns a download link for a ready recording", async () => {
    const id = await candidateWithRecording("ready");
    const response = await get(`/v1/candidates/${id}/recording`);
    expect(response.status).toBe(200);
    const recording = response.body.data.recording;
    expect(Object.keys(recording).sort()).toEqual(["content_type", "download_url", "duration_seconds", "expires_at", "status"]);
    expect(recording).toMatchObject({ status: "ready", content_type: "audio/wav", duration_seconds: 321 });
    const lifetime = new Date(recording.expires_at).getTime() - response.body.timestamp * 1000;
    expect(lifetime).toBeGreaterThan(14 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(16 * 60_000);
    const candidate = (await get(`/v1/candidates/${id}`)).body.data.candidate;
    expect(candidate.ai_interview.recording.url).toBe(`${server.baseUrl}/v1/candidates/${id}/recording`);
  });

  it.each(["processing", "failed", "none", "deleted"] as const)("answers 404 with the status when the recording is %s", async (outcome) => {
    const id = await candidateWithRecording(outcome);
    const response = await get(`/v1/candidates/${id}/recording`);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, error: "not_found", details: { recording_status: outcome } });
    expect((await get(`/v1/candidates/${id}`)).body.data.candidate.ai_interview.recording).toEqual({ status: outcome, url: null });
  });

  it("answers 404 when there is no AI interview", async () => {
    const candidate = await startCandidate(test.ctx, interview.id, { email: "noai@example.com" });
    const response = await get(`/v1/candidates/${candidate.id}/recording`);
    expect(response).toMatchObject({ status: 404, body: { details: { recording_status: null } } });
    expect((await get(`/v1/candidates/${candidate.id}/transcript`)).body.data.transcript).toEqual([]);
    await startAiInterview(test.ctx, candidate.id);
    expect((await get(`/v1/candidates/${candidate.id}`)).body.data.candidate.ai_interview.recording).toEqual({ status: "processing", url: null });
  });
});

describe("download links", () => {
  let url: string;
  let candidateId: string;
  beforeAll(async () => {
    candidateId = await candidateWithRecording("ready");
    url = (await get(`/v1/candidates/${candidateId}/recording`)).body.data.recording.download_url;
  });

  it("serve the file without a key, uncached, as an attachment of its length", async () => {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("audio/wav");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("content-length")).toBe(String(bytes.length));
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="Ada Lovelace recording ${candidateId}.wav"; filename*=UTF-8''Ada%20Lovelace%20recording%20${candidateId}.wav`,
    );
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
  });

  it("name each candidate's recording apart, and documents by the name they were uploaded with", async () => {
    const other = await candidateWithRecording("ready");
    const otherUrl = (await get(`/v1/candidates/${other}/recording`)).body.data.recording.download_url;
    const names = await Promise.all([url, otherUrl].map(async (link) => (await fetch(link)).headers.get("content-disposition")));
    expect(names[0]).not.toBe(names[1]);
    expect(names[1]).toContain(`recording ${other}.wav`);
    const [document] = (await get(`/v1/candidates/${other}`)).body.data.candidate.documents;
    const file = (await get(`/v1/files/${document.id}`)).body.data.file;
    const served = await fetch(file.download_url);
    expect(served.headers.get("content-disposition")).toBe(`attachment; filename="cv.pdf"; filename*=UTF-8''cv.pdf`);
    expect(served.headers.get("content-length")).toBe("8");
  });

  it("honour byte ranges so a player can seek", async () => {
    const part = await fetch(url, { headers: { Range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 100-199/1000");
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(100, 200));
    const tail = await fetch(url, { headers: { Range: "bytes=-10" } });
    expect(tail.headers.get("content-range")).toBe("bytes 990-999/1000");
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(bytes.subarray(990));
    const open = await fetch(url, { headers: { Range: "bytes=995-" } });
    expect(Buffer.from(await open.arrayBuffer())).toEqual(bytes.subarray(995));
    const beyond = await fetch(url, { headers: { Range: "bytes=5000-" } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe("bytes */1000");
  });

  it("never write a refused request's answer into the bytes of a download being sent on the same connection", async () => {
    const candidate = await startCandidate(test.ctx, interview.id, { email: "large@example.com" });
    await completeSteps(test.ctx, interview, candidate.id);
    await saveScore(test.ctx, candidate.id, score());
    const large = Buffer.alloc(32 * 1024 * 1024, 7);
    await storeRecording(test.ctx, candidate.id, { fileName: "long.wav", contentType: "audio/wav", bytes: large, durationSeconds: 3600 });
    const link = new URL((await get(`/v1/candidates/${candidate.id}/recording`)).body.data.recording.download_url);
    // The download's head has arrived and its body is on its way (the client reads nothing meanwhile) when a request Node refuses follows it.
    const received = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = connect(Number(link.port), link.hostname, () => socket.write(`GET ${link.pathname} HTTP/1.1\r\nHost: ${link.host}\r\n\r\n`));
      socket.once("data", (first: Buffer) => {
        chunks.push(first);
        socket.pause();
        socket.write("HELLO THERE\r\n\r\n", () => setTimeout(() => socket.on("data", (chunk: Buffer) => chunks.push(chunk)).resume(), 500));
      });
      socket.on("error", reject);
      socket.on("close", () => resolve(Buffer.concat(chunks)));
    });
    expect(received.subarray(0, 15).toString()).toBe("HTTP/1.1 200 OK");
    expect(received.includes("HTTP/1.1 400")).toBe(false);
  });

  it("stop working after 15 minutes", async () => {
    const [recording] = await test.ctx.db.select().from(files).where(eq(files.kind, "recording")).limit(1);
    const issued = (ageMs: number) => seal("download", { f: recording!.id, c: companyId, x: Date.now() - ageMs + 15 * 60_000 });
    const fresh = await fetch(`${server.baseUrl}/downloads/${issued(14 * 60_000)}`);
    expect(fresh.status).toBe(200);
    const expired = await fetch(`${server.baseUrl}/downloads/${issued(15 * 60_000 + 1000)}`);
    expect(expired.status).toBe(403);
    const body = await expired.json();
    expect(body).toMatchObject({ success: false, error: "permission_denied", message: expect.stringMatching(/expired/) });
    expect(expired.headers.get("content-type")).toMatch(/application\/json/);
  });

  it("refuse a link that was altered, with no file", async () => {
    const [token, mac] = url.split("/downloads/")[1]!.split(".");
    const payload = JSON.parse(Buffer.from(token!, "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, x: payload.x + 3600_000 })).toString("base64url");
    for (const bad of [`${forged}.${mac}`, `${token}.AAAA${mac!.slice(4)}`, "nonsense", `${token}`]) {
      const response = await fetch(`${server.baseUrl}/downloads/${bad}`);
      expect(response.status).toBe(403);
      expect((await response.json()).message).toMatch(/not valid/);
    }
  });

  it("stop serving a recording deleted after retention, and any file of a suspended company", async () => {
    const id = await candidateWithRecording("ready");
    const link = (await get(`/v1/candidates/${id}/recording`)).body.data.recording.download_url;
    await deleteRecording(test.ctx, id);
    expect((await fetch(link)).status).toBe(404);

    const other = await makeCompany(test.ctx, "Paused");
    const otherKey = (await createApiKey(test.ctx, { companyId: other, name: "k" })).key;
    const otherInterview = await makeInterview(test.ctx, other);
    const candidate = await startCandidate(test.ctx, otherInterview.id);
    await completeSteps(test.ctx, otherInterview, candidate.id);
    await storeRecording(test.ctx, candidate.id, { fileName: "r.wav", contentType: "audio/wav", bytes, durationSeconds: 1 });
    const otherLink = (await callApi(server, `/v1/candidates/${candidate.id}/recording`, { key: otherKey })).body.data.recording.download_url;
    await setCompanySuspended(test.ctx, other, true);
    expect((await fetch(otherLink)).status).toBe(403);
  });
});

describe("GET /files/{id}", () => {
  it("returns a working link for a document in the candidate's documents list", async () => {
    const id = await candidateWithRecording("ready");
    const document = (await get(`/v1/candidates/${id}`)).body.data.candidate.documents[0];
    expect(document.url).toBe(`${server.baseUrl}/v1/files/${document.id}`);
    const response = await get(`/v1/files/${document.id}`);
    expect(response.status).toBe(200);
    const file = response.body.data.file;
    expect(file).toMatchObject({ id: document.id, name: "cv.pdf", content_type: "application/pdf", size_bytes: 8 });
    expect(Object.keys(file).sort()).toEqual(["content_type", "download_url", "expires_at", "id", "name", "size_bytes"]);
    const download = await fetch(file.download_url);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(await download.text()).toBe("%PDF-1.4");
  });

  it("does not serve recordings or unknown ids as files", async () => {
    const id = await candidateWithRecording("ready");
    const recordingFile = (await test.ctx.db.select().from(files).where(eq(files.candidateId, id))).find((f) => f.kind === "recording")!;
    expect((await get(`/v1/files/${recordingFile.id}`)).status).toBe(404);
    expect((await get("/v1/files/file_nope")).status).toBe(404);
  });
});

/**
 * The candidate page stays open for as long as someone reads it: its links
 * must not carry a download token signed when the page was shown (15 minutes
 * later the token would be refused, issue 27). Each link is signed when it is
 * followed instead.
 */
describe("the candidate page's download links", () => {
  let cookie: string;
  let candidateId: string;
  let links: string[];
  beforeAll(async () => {
    cookie = await signInOverHttp(server, "ada@media.example", password);
    candidateId = await candidateWithRecording("ready");
    const page = await (await fetch(`${server.baseUrl}/candidates/${candidateId}`, { headers: { Cookie: cookie } })).text();
    links = [...page.matchAll(/(?:href|src)="([^"]+)"/g)]
      .map((match) => match[1]!.replaceAll("&amp;", "&"))
      .filter((link) => /download|recording|document/.test(link));
  });

  it("hold no download token, so they do not expire while the page is open", async () => {
    expect(links.length).toBeGreaterThanOrEqual(3);
    for (const link of links) expect(link).not.toContain("/downloads/");
  });

  it("lead, when followed, to a download link signed then, valid for 15 minutes from the click", async () => {
    for (const link of new Set(links)) {
      const clickedAt = Date.now();
      const followed = await fetch(new URL(link, server.baseUrl), { headers: { Cookie: cookie }, redirect: "manual" });
      expect(followed.status, link).toBe(303);
      expect(followed.headers.get("cache-control")).toBe("no-store");
      const location = followed.headers.get("location")!;
      const token = location.split("/downloads/")[1]!;
      expect(readDownloadToken(token, new Date(clickedAt + 14 * 60_000))).toMatchObject({ companyId });
      expect(readDownloadToken(token, new Date(Date.now() + 15 * 60_000))).toBe("expired");
      const file = await fetch(location);
      expect(file.status).toBe(200);
      expect(Number(file.headers.get("content-length"))).toBe((await file.arrayBuffer()).byteLength);
    }
  });

  it("send a visitor without a session to sign in, and back", async () => {
    const followed = await fetch(new URL(links[0]!, server.baseUrl), { redirect: "manual" });
    expect(followed.status).toBe(307);
    expect(followed.headers.get("location")).toContain(`/sign-in?callbackUrl=${encodeURIComponent(links[0]!)}`);
  });

  it("say so in plain words when the file is gone", async () => {
    const response = await fetch(`${server.baseUrl}/candidates/${candidateId}/documents/file_unknown`, { headers: { Cookie: cookie } });
    expect(response.status).toBe(404);
    expect(await response.text()).toMatch(/no longer available/);
  });
});
