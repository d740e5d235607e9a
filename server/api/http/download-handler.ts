/**
 * Serves a signed download link (see server/read/downloads.ts) without an
 * API key. Honours one HTTP byte range, so a browser can seek in a recording.
 */
import { Readable } from "node:stream";
import { appClock, appDatabase } from "@/server/app-database";
import { env } from "@/server/env";
import { toResponse } from "@/server/http/answer";
import { ApiError, errorResponse, methodNotAllowed, newTraceId } from "@/server/http/api-error";
import { bodyLengthHeader } from "@/server/http/body-length";
import { findDownloadable } from "@/server/read/downloads";
import { readDownloadToken } from "@/server/security/download-tokens";
import { localFileStorage } from "@/server/storage/file-storage";
import { notFound } from "../errors";

const storage = localFileStorage(env.FILE_STORAGE_DIR);

const errorAnswer = (error: ApiError, traceId: string) => toResponse(errorResponse(error, traceId));

/** The single range of `Range: bytes=…`, or "unsatisfiable"; multi-range requests get the whole file. */
export function parseRange(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === "" && match[2] === "")) return null;
  let start: number;
  let end: number;
  if (match[1] === "") {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return "unsatisfiable";
  return { start, end };
}

function contentDisposition(fileName: string) {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export async function handleDownload(request: Request, token: string): Promise<Response> {
  const traceId = newTraceId();
  if (request.method !== "GET") {
    return errorAnswer(methodNotAllowed("Downloads are read-only: only GET requests are accepted."), traceId);
  }
  const target = readDownloadToken(token, appClock().now());
  if (target === "invalid") {
    return errorAnswer(new ApiError("permission_denied", "This download link is not valid. Ask the API for a new one."), traceId);
  }
  if (target === "expired") {
    return errorAnswer(new ApiError("permission_denied", "This download link has expired (links work for 15 minutes). Ask the API for a new one."), traceId);
  }
  const file = await findDownloadable(appDatabase().sql, target);
  if (file?.suspended) return errorAnswer(new ApiError("permission_denied", "This company account is suspended."), traceId);
  const size = file ? await storage.size(file.storage_key) : null;
  if (!file || size === null) return errorAnswer(notFound("file", target.fileId), traceId);

  const headers: Record<string, string> = {
    "Content-Type": file.content_type ?? "application/octet-stream",
    "Content-Disposition": contentDisposition(file.download_name),
    "Cache-Control": "no-store",
    "Accept-Ranges": "bytes",
    "X-Content-Type-Options": "nosniff",
    "X-Trace-Id": traceId,
  };
  const range = parseRange(request.headers.get("range"), size);
  if (range === "unsatisfiable") {
    return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${size}` } });
  }
  const stream = (selected?: { start: number; end: number }) => Readable.toWeb(storage.read(file.storage_key, selected)) as ReadableStream<Uint8Array>;
  if (!range) return new Response(stream(), { status: 200, headers: { ...headers, [bodyLengthHeader]: String(size) } });
  return new Response(stream(range), {
    status: 206,
    headers: { ...headers, "Content-Range": `bytes ${range.start}-${range.end}/${size}`, [bodyLengthHeader]: String(range.end - range.start + 1) },
  });
}
