/**
 * Vitest's order (BaseSequencer: slowest first once it has timed the files,
 * largest first on a fresh clone), except that the files listed start in the
 * order listed. The timed files share two places: listed in the right order,
 * the two that work run one after the other beside the one that mostly waits,
 * and never beside each other, whatever their sizes (see vitest.config.ts).
 */
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export function listedFilesInOrder(listed: readonly string[]) {
  return class ListedFilesInOrder extends BaseSequencer {
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
