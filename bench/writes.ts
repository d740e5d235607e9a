/**
 * `npm run bench:writes [-- --seconds 10 --writers 8]`
 *
 * The domain write path (one transaction per step, the way the product writes
 * a candidate), on its own embedded database, three ways:
 * - history: `simulate` without `--bulk`, one step after another in time order;
 * - one company: `--writers` loops at once, each taking whole candidates
 *   (start, answers, AI interview, document, score, recording, submission)
 *   through the same company, for `--seconds`;
 * - one company each: the same loops, each in a company of its own.
 * Prints steps or candidates per second; the last two side by side say what
 * writers of one company cost each other.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDatabase } from "@/db/client";
import { simulate } from "@/server/demo/simulate";
import { createDomainContext } from "@/server/domain/context";
import { localFileStorage } from "@/server/storage/file-storage";
import { makeCompany, makeInterview, submitCandidate } from "../tests/support/fixtures";
import { benchDatabase, fixed, table } from "./support";

const { values } = parseArgs({
  options: { seconds: { type: "string", default: "10" }, writers: { type: "string", default: "8" }, candidates: { type: "string", default: "300" } },
});
const seconds = Number(values.seconds);
const writers = Number(values.writers);
const log = (line: string) => process.stdout.write(`${line}\n`);

const database = await benchDatabase();
const handle = createDatabase(database.url, { max: writers + 2 });
const filesDir = mkdtempSync(path.join(tmpdir(), "bench-files-"));
try {
  const ctx = createDomainContext(handle.db, { storage: localFileStorage(filesDir) });

  const historyCompany = await makeCompany(ctx, "History");
  const historyStarted = performance.now();
  const history = await simulate(ctx, { companyId: historyCompany, candidates: Number(values.candidates), seed: 1 });
  const historySeconds = (performance.now() - historyStarted) / 1000;
  if (history.mode !== "history") throw new Error(`simulate wrote in ${history.mode} mode; ask for fewer --candidates`);

  /** Candidates each loop submits in `seconds`, each loop in the company `companyOf` gives it. */
  async function concurrent(companyOf: (loop: number) => Promise<string>) {
    const interviews = await Promise.all(Array.from({ length: writers }, async (_, loop) => makeInterview(ctx, await companyOf(loop))));
    const until = performance.now() + seconds * 1000;
    let made = 0;
    await Promise.all(
      interviews.map(async (interview, loop) => {
        for (let index = 0; performance.now() < until; index++) {
          await submitCandidate(ctx, interview, { email: `w${loop}-${index}@example.com` });
          made++;
        }
      }),
    );
    return made / seconds;
  }
  const shared = await makeCompany(ctx, "Shared");
  const oneCompany = await concurrent(async () => shared);
  const ownCompanies = await concurrent((loop) => makeCompany(ctx, `Own ${loop}`));

  log(
    table([
      ["write path", "rate"],
      ["history (simulate, one step at a time)", `${fixed(history.steps / historySeconds)} steps/s`],
      [`${writers} writers, one company`, `${fixed(oneCompany)} candidates/s`],
      [`${writers} writers, a company each`, `${fixed(ownCompanies)} candidates/s`],
    ]),
  );
} finally {
  await handle.close();
  await database.stop();
  rmSync(filesDir, { recursive: true, force: true });
}
