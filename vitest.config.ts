/**
 * One vitest configuration for `npm test` and for CI's passes (.ci/run). Where a test file runs follows from its
 * path and what it declares, never from a list, so that a new file falls into place by itself:
 * - `unit`, first: src/, test/engine/ and test/support/ (pure code: the engine and the test-side checkers), on at
 *   least two workers (they compute; vitest's default on a 2-core machine is one). Files share their worker
 *   process (no isolation), so the Open XML SDK validator (.NET on WebAssembly, ~5 s to boot) starts once per
 *   worker instead of once per file. A file there must leave no global state behind (no process.env writes, no
 *   unrestored spies), as none does today.
 * - `integration`, after the unit files: every other test file (servers, stores, processes, browsers, clocks),
 *   each in a fresh process, on vitest's default number of workers (one on a 2-core machine), as before.
 * - A test that needs the shared corpus is declared with `describeCorpus` / `itCorpus` (test/support/corpus/corpus.ts),
 *   which skip it without the corpus and tag it `corpus`. CI runs `npm test` without the corpus, then
 *   `vitest run --tags-filter=corpus` over the test files that use those two: the corpus tests, and only them,
 *   run a second time.
 * - The far-clock pass (`npm run test:other-date`) runs test/service, test/adapters and test/http/usage.test.ts.
 */
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const UNIT = ['src/**/*.test.ts', 'test/engine/**/*.test.ts', 'test/support/**/*.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/support/corpus/corpus-notice.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    tags: [
      {
        name: 'corpus',
        description:
          'needs the shared corpus (given by describeCorpus / itCorpus in test/support/corpus/corpus.ts); ' +
          'CI runs these once more with the corpus',
      },
    ],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          isolate: false,
          maxWorkers: Math.max(2, availableParallelism() - 1),
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: UNIT,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
