/**
 * What every benchmark in bench/ needs: where the repository and the corpus are, its command-line options,
 * medians of timed runs, and a report that is printed as it goes and can be kept (`--write`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, option, processRun } from './process.js';

export { median, option, processRun };

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The shared corpus, where the tests look for it: $DECKFORGE_CORPUS, else beside the clone (as CI has it). */
export const CORPUS = process.env.DECKFORGE_CORPUS
  ? resolve(process.env.DECKFORGE_CORPUS)
  : join(ROOT, '..', 'shared', 'corpus');
try {
  readFileSync(join(CORPUS, 'manifest.json'));
} catch {
  throw new Error(
    `bench: the corpus is missing at ${CORPUS} (set DECKFORGE_CORPUS or place it at ../shared/corpus)`,
  );
}

export const corpusPath = (...parts) => join(CORPUS, ...parts);
export const corpusBytes = (...parts) => new Uint8Array(readFileSync(corpusPath(...parts)));

/** `--rounds N`: timed runs per figure. */
export const rounds = (fallback) => Number(option('rounds', fallback));

export const ms = (value) => `${value.toFixed(1)} ms`;

/** Median wall time of `rounds` calls of `fn`, after calling it for at least `warmupMs` (and once). */
export async function time(fn, count, warmupMs = 0) {
  const warmUntil = performance.now() + warmupMs;
  do await fn();
  while (performance.now() < warmUntil);
  const samples = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/** Lines printed as they come; with `--write` they are also kept in bench/out-<name>.md at `save()`. */
export function report(name) {
  const lines = [];
  return {
    print(line) {
      lines.push(line);
      console.log(line);
    },
    save() {
      if (process.argv.includes('--write'))
        writeFileSync(join(ROOT, 'bench', `out-${name}.md`), `${lines.join('\n')}\n`);
    },
  };
}

/** `deckforge generate <args>` as a whole process, `count` times after one untimed run: each run's wall and RSS. */
export function generateRuns(args, count) {
  const runs = [];
  for (let i = 0; i <= count; i++) {
    const run = processRun([join(ROOT, 'bin', 'deckforge.js'), 'generate', ...args]);
    if (run.status !== 0) throw new Error(`deckforge generate failed: ${run.stderr}`);
    if (i > 0) runs.push(run);
  }
  return runs;
}
