/**
 * A database of the test file's own, cloned from the migrated template, with
 * a domain context whose clock the test controls.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, inject } from "vitest";
import { createDatabase, type DatabaseHandle } from "@/db/client";
import { createDomainContext, type DomainContext } from "@/server/domain/context";
import { localFileStorage } from "@/server/storage/file-storage";

/** A clock that stays where the test puts it; it starts a day before real time. */
export class TestClock {
  constructor(private current = new Date(Date.now() - 24 * 3600_000)) {}
  now = () => new Date(this.current);
  set(at: Date | string) {
    this.current = new Date(at);
  }
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export type TestDatabase = {
  url: string;
  handle: DatabaseHandle;
  clock: TestClock;
  ctx: DomainContext;
  filesDir: string;
};

export async function createTestDatabase(): Promise<TestDatabase & { drop: () => Promise<void> }> {
  const serverUrl = inject("serverUrl");
  const name = `test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${inject("templateDatabase")} strategy ${inject("cloneStrategy")}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = createDatabase(url.toString());
  const clock = new TestClock();
  const filesDir = mkdtempSync(path.join(tmpdir(), "interview-api-files-"));
  // Signatures too are made on the test's clock, so a test can sign at the time it checks.
  const ctx = createDomainContext(handle.db, { clock, hostClock: clock, storage: localFileStorage(filesDir) });
  return {
    url: url.toString(),
    handle,
    clock,
    ctx,
    filesDir,
    drop: async () => {
      await handle.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

/** Gives the calling test file its own database for all of its tests. */
export function useTestDatabase(): TestDatabase {
  const holder = {} as TestDatabase;
  let drop = async () => {};
  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    Object.assign(holder, created);
  });
  afterAll(() => drop());
  return holder;
}
