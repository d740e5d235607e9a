/**
 * Where file bytes live. Local disk by default; the interface is small so an
 * S3-compatible store can stand in later without touching callers.
 */
import { createReadStream } from "node:fs";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";

export type ByteRange = { start: number; end: number };

export interface FileStorage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** Size in bytes, or null when nothing is stored under the key. */
  size(key: string): Promise<number | null>;
  read(key: string, range?: ByteRange): Readable;
  remove(key: string): Promise<void>;
}

export function localFileStorage(root: string): FileStorage {
  const locate = (key: string) => {
    if (!/^[\w-]+(\/[\w.-]+)*$/.test(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.resolve(root, key);
  };
  return {
    async put(key, bytes) {
      const file = locate(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, bytes);
    },
    async size(key) {
      try {
        return (await stat(locate(key))).size;
      } catch {
        return null;
      }
    },
    read(key, range) {
      return createReadStream(locate(key), range ? { start: range.start, end: range.end } : undefined);
    },
    async remove(key) {
      await rm(locate(key), { force: true });
    },
  };
}
