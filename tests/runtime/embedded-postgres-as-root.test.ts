/**
 * As root, the embedded PostgreSQL runs as the `postgres` OS user. Containers
 * and CI run as root, often from a private folder (`mktemp -d`, /root): the
 * product must either work or say in one sentence what to do.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "@/server/runtime/embedded-postgres";
import { freePort } from "../support/ports";

let folder = "";
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe.runIf(process.getuid?.() === 0)("embedded PostgreSQL started by root", { timeout: 120_000 }, () => {
  it("says which folder to open when the data folder sits inside a private one", async () => {
    folder = mkdtempSync(path.join(tmpdir(), "interview-api-root-"));
    const starting = startEmbeddedPostgres({ directory: path.join(folder, ".data", "postgres"), port: await freePort(), database: "postgres" });
    await expect(starting).rejects.toThrow(
      `As root, PostgreSQL runs as the "postgres" user, who cannot enter ${folder}: run as a normal user, set DATABASE_URL, or let that user through with \`chmod o+x ${folder}\`.`,
    );
  });
});
