#!/usr/bin/env node
/**
 * A cheap speed guard, in one process, in seconds: the engine (dist/, so `npm run build` first) generating a
 * fixed deck, against a fixed reference task on the same machine at the same moment: fflate unzipping and zipping
 * again that deck's parts. A slower or busier machine slows both, so their ratio moves far less than either
 * time; a change that makes the engine slower moves the ratio.
 *   node bench/guard/run.js [--rounds N] [--write-baseline]
 *
 * Rounds interleave the two tasks after a warm-up; the ratio is the engine's least time ÷ the reference's least
 * time: on a shared machine the least is the run the neighbours disturbed least, and its ratio moves far less than
 * the medians' (bench/README.md, "Speed guard"). Exits 1 when the ratio is more than 25 % above
 * bench/guard/baseline.json's; --write-baseline stores this run's figures there instead.
 * The deck: examples/sample-template.pptx (no corpus needed), 200 slides, title and body filled, a 6 × 4 table
 * every tenth slide from examples/report.pptx.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync, zipSync } from 'fflate';
import { generate } from '../../dist/engine/index.js';
import { median, option } from '../process.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BASELINE = join(ROOT, 'bench', 'guard', 'baseline.json');
const ROUNDS = Number(option('rounds', 25));
const WORSE_BY = 0.25;
const WARM_UP_MS = Number(option('warm-up-ms', 3000));

const files = new Map(
  ['sample-template.pptx', 'report.pptx'].map((name) => [
    name,
    new Uint8Array(readFileSync(join(ROOT, 'examples', name))),
  ]),
);
const payload = {
  presentation: {
    template: 'sample-template.pptx',
    slides: Array.from({ length: 200 }, (_, i) =>
      i % 10 === 9
        ? {
            template: 'report.pptx',
            slide_index: 0,
            shapes: [
              { name: 'Title 1', content: `Table ${i + 1}` },
              {
                name: 'Table 1',
                content: Array.from({ length: 6 }, (_, r) =>
                  Array.from({ length: 4 }, (_, c) => `${i}.${r}.${c}`),
                ),
              },
            ],
          }
        : {
            slide_index: 1,
            shapes: [
              { name: 'Title', content: `Slide ${i + 1}` },
              { name: 'Body', content: `Body text of slide ${i + 1}` },
            ],
          },
    ),
  },
};

const engine = () => generate({ payload, files }).bytes;
const deck = engine();
const reference = () => zipSync(unzipSync(deck), { level: 6 });

function timed(fn) {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

// Warm-up until both are compiled and the heap has grown to its working size: the engine keeps getting faster
// over its first hundred or so calls, and a ratio taken before that depends on the number of rounds.
const started = performance.now();
while (performance.now() - started < WARM_UP_MS) {
  engine();
  reference();
}
const engineMs = [];
const referenceMs = [];
for (let i = 0; i < ROUNDS; i++) {
  engineMs.push(timed(engine));
  referenceMs.push(timed(reference));
}
const least = { engine: Math.min(...engineMs), reference: Math.min(...referenceMs) };
const ratio = least.engine / least.reference;
const figures = `engine ${least.engine.toFixed(1)} ms, reference ${least.reference.toFixed(1)} ms (least of each; medians ${median(engineMs).toFixed(1)} and ${median(referenceMs).toFixed(1)} ms), ratio ${ratio.toFixed(3)}`;
const context = `${ROUNDS} rounds in ${((performance.now() - started) / 1000).toFixed(1)} s, load average ${loadavg()[0].toFixed(2)}`;

if (process.argv.includes('--write-baseline')) {
  const baseline = {
    ratio: Number(ratio.toFixed(3)),
    engineMs: Number(least.engine.toFixed(1)),
    referenceMs: Number(least.reference.toFixed(1)),
    date: new Date().toISOString().slice(0, 10),
    machine: `${cpus().length} × ${cpus()[0]?.model}`,
    node: process.version,
  };
  writeFileSync(BASELINE, `${JSON.stringify(baseline, null, 2)}\n`);
  console.log(`guard: baseline written (${figures}; ${context})`);
} else {
  const baseline = JSON.parse(readFileSync(BASELINE, 'utf8'));
  const limit = baseline.ratio * (1 + WORSE_BY);
  console.log(`guard: now      ${figures} (${context})`);
  console.log(
    `guard: baseline engine ${baseline.engineMs} ms, reference ${baseline.referenceMs} ms, ratio ${baseline.ratio} (${baseline.date}, Node ${baseline.node}); limit ${limit.toFixed(3)}`,
  );
  if (ratio > limit) {
    console.log(
      `guard: the engine is ${((ratio / baseline.ratio - 1) * 100).toFixed(0)} % slower than the baseline relative to the reference task: find the change that slowed it, or, if the slowdown is meant, run with --write-baseline and say why in the commit`,
    );
    process.exit(1);
  }
  console.log(`guard: within ${WORSE_BY * 100} % of the baseline`);
}
