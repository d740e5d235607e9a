/**
 * Prints the ten slowest test files after a run, so a file that got slow is
 * seen where everyone looks (the end of `npm test`), not found by bisecting.
 * A file's time is all it took in its worker: setting up, importing, its
 * hooks and its tests. The default reporter's own summary follows.
 */
import type { Reporter, TestModule } from "vitest/node";

const shown = 10;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function fileTime(module: TestModule): number {
  const { environmentSetupDuration, prepareDuration, collectDuration, setupDuration, duration } = module.diagnostic();
  return environmentSetupDuration + prepareDuration + collectDuration + setupDuration + duration;
}

export default class SlowestFilesReporter implements Reporter {
  private startedAt = 0;

  onTestRunStart() {
    this.startedAt = Date.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    if (modules.length === 0) return;
    const slowest = modules
      .map((module) => ({ file: module.relativeModuleId, ms: fileTime(module) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, shown);
    const width = Math.max(...slowest.map(({ file }) => file.length));
    const lines = slowest.map(({ file, ms }) => `  ${file.padEnd(width)}  ${seconds(ms).padStart(8)}`);
    process.stdout.write(`\nSlowest test files (of ${modules.length}; the run's tests took ${seconds(Date.now() - this.startedAt)}):\n${lines.join("\n")}\n`);
  }
}
