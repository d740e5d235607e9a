import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { CursorStore } from "./events-follower.js";

/**
 * Keeps a follower's position in a file (created with its folder on the first
 * save), so a restarted process goes on where the last one stopped. The file
 * is replaced whole by a rename: a crash mid-write leaves the previous position.
 */
export function fileCursorStore(file: string): CursorStore {
  return {
    load: async () => {
      try {
        return (await readFile(file, "utf8")).trim() || null;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    save: async (cursor) => {
      await mkdir(path.dirname(file), { recursive: true });
      const partial = `${file}.${process.pid}.tmp`;
      await writeFile(partial, `${cursor}\n`);
      await rename(partial, file);
    },
  };
}
