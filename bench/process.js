/**
 * Whole-process measurement for the benchmarks, with no corpus needed (bench/support.js adds the corpus and
 * re-exports these): command-line options, medians, and one Node process's wall time and peak RSS.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `--name value` from the command line, or `fallback`. */
export function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Makes each child report its peak RSS (getrusage's maxRSS, all threads) on stderr as it exits. */
let rssProbe = null;
function probe() {
  if (!rssProbe) {
    rssProbe = join(mkdtempSync(join(tmpdir(), 'deckforge-bench-probe-')), 'rss.cjs');
    writeFileSync(
      rssProbe,
      "process.on('exit', () => require('fs').writeSync(2, `\\nmaxRSS=${process.resourceUsage().maxRSS}\\n`));",
    );
  }
  return rssProbe;
}

/** One Node process running `args`: wall ms from spawn to exit, peak RSS in MB, exit status, stderr. */
export function processRun(args, { env = {}, timeout } = {}) {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--require', probe(), ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout,
    maxBuffer: 64 * 2 ** 20,
  });
  const wall = performance.now() - started;
  const rss = Number(/maxRSS=(\d+)/.exec(result.stderr ?? '')?.[1] ?? NaN) / 1024;
  return { wall, rss, status: result.status, signal: result.signal, stderr: result.stderr };
}
