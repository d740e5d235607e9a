/**
 * Debian's programs that the topology tests run beside the product: PgBouncer
 * (`pgbouncer`), `faketime`, PostgreSQL's `pg_basebackup`. Without one, its
 * tests are skipped with a notice, unless REQUIRE_DEBIAN_TOOLS=1 (set by
 * .ci/run, which installs them), which makes a missing one a failure.
 */
import { execFileSync } from "node:child_process";

const packages: Record<string, string> = { faketime: "faketime", pgbouncer: "pgbouncer" };

/** Where `program` runs from: a name on PATH, a path, or Debian's /usr/sbin, which a normal user's PATH lacks (pgbouncer is there). */
export function debianToolPath(program: string): string | null {
  for (const candidate of [program, `/usr/sbin/${program}`]) {
    try {
      execFileSync("sh", ["-c", `command -v "$0" || test -x "$0"`, candidate], { stdio: "ignore" });
      return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

/** Whether `program` is on this machine (a name on PATH, or a path); a missing one throws under REQUIRE_DEBIAN_TOOLS=1. */
export function requireDebianTool(program: string): boolean {
  if (debianToolPath(program)) return true;
  const install = `apt-get install -y ${packages[program] ?? "postgresql"}`;
  if (process.env.REQUIRE_DEBIAN_TOOLS === "1") throw new Error(`REQUIRE_DEBIAN_TOOLS=1 but ${program} is missing (install it: ${install}).`);
  process.stderr.write(`\n  Tests that need ${program} SKIPPED: install it with \`${install}\`.\n\n`);
  return false;
}
