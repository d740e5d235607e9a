/**
 * Vitest's order of test files (BaseSequencer: files that failed or were never
 * timed first, then the slowest; the largest first on a fresh clone), except
 * that the files listed start in the order listed, within their group. The
 * timed files rely on it to decide which of them run side by side
 * (vitest.config.ts).
 */
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export function inListedOrder(listed: readonly string[]) {
  return class ListedOrder extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const place = (file: TestSpecification) => {
        const index = listed.indexOf(path.relative(file.project.config.root, file.moduleId));
        return index === -1 ? listed.length : index;
      };
      // Array sort is stable: files not listed keep Vitest's order.
      return (await super.sort(files)).sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || place(a) - place(b));
    }
  };
}
