/**
 * One vitest configuration for `npm test` and for CI's passes (.ci/run). Where a test file runs follows from its
 * path and what it declares, never from a list, so that a new file falls into place by itself:
 * - `unit`, first: src/, test/engine/ and test/support/ (pure code: the engine and the test-side checkers), on at
 *   least two workers (they compute; vitest's default on a 2-core machine is one). Files share their worker
 *   process (no isolation), so the Open XML SDK validator (.NET on WebAssembly, ~5 s to boot) starts once per
 *   worker instead of once per file. A file there must leave no global state behind (no process.env writes, no
 *   unrestored spies), as none does today.
 * - `integration`, next: every other test file (servers, stores, processes, browsers, clocks), each in a fresh
 *   process, two at a time: most of them wait on LibreOffice, the databases, Chromium or sockets, and each uses
 *   stores of its own (a database, a Redis key prefix, a data folder, free ports), so two never meet.
 * - `timing`, last and alone: the files named `*.timing.test.ts`, whose tests measure how long something takes
 *   (an answer's time, a deadline, a ratio of latencies) and would measure their neighbour instead.
 * - A test that needs the shared corpus is declared with `describeCorpus` / `itCorpus` (test/support/corpus/corpus.ts),
 *   which skip it without the corpus and tag it `corpus`.
 * - Templates' validator results are kept on disk by content hash (test/support/checks/validator-cache.ts); the
 *   files that run in processes of their own share one validator process (test/support/checks/validator-service.ts).
 */
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

const UNIT = ['src/**/*.test.ts', 'test/engine/**/*.test.ts', 'test/support/**/*.test.ts'];
const TIMING = ['**/*.timing.test.ts'];
/**
 * Files a pass leaves out, as globs separated by commas (DECKFORGE_TEST_EXCLUDE): the Node 24 pass
 * (`npm run test:other-date`) runs test/adapters but the renderer's tests, which measure LibreOffice, not Node.
 */
const EXCLUDED = (process.env.DECKFORGE_TEST_EXCLUDE ?? '').split(',').filter(Boolean);
/** Integration files at a time: 2, or DECKFORGE_TEST_WORKERS (1 to run them one by one). */
const INTEGRATION_WORKERS = Number(process.env.DECKFORGE_TEST_WORKERS) || 2;

export default defineConfig({
  test: {
    globalSetup: ['test/support/corpus/corpus-notice.ts', 'test/support/checks/validator-service.ts'],
    // A deadline for a test that hangs, not a measure of speed (timing files measure their own): on a 2-core
    // machine also running typecheck, lint and a second file, an engine test that takes 15 s alone has taken 80.
    testTimeout: 180_000,
    hookTimeout: 180_000,
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
          exclude: [...TIMING, ...EXCLUDED],
          isolate: false,
          maxWorkers: Math.max(2, availableParallelism() - 1),
          // A validator in each worker: the shared one takes one package at a time (validator-service.ts).
          env: { DECKFORGE_VALIDATOR_SOCKET: '' },
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT, ...TIMING, ...EXCLUDED],
          maxWorkers: INTEGRATION_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'timing',
          include: TIMING,
          exclude: [...configDefaults.exclude, ...EXCLUDED],
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
