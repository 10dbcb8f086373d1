#!/usr/bin/env node
/**
 * Chart benchmark: deckforge vs pptx-automizer filling charts, in one run. After `npm run build`:
 *   node bench/charts/run.js [--rounds N]
 *
 * C1: Open-XML-SDK/Chart_2D.pptx, 20 output slides each filling "Chart 5" (4 × 3 in the template, embedded
 *     workbook) with 12 categories × 3 series; in process, a first request (no template cache), median after
 *     warm-up; pptx-automizer's `setChartData` doing the same work in the same process. For deckforge also the
 *     main thread's time on a core and waiting for one (Linux schedstat), and GC pauses: on a shared machine the
 *     wall time is mostly the wait.
 * C2: 200 slides, each a chart of 50 categories × 6 series: time for 50, 100 and 200 slides (cost per slide should
 *     stay flat), and the peak RSS of a whole process generating the 200-slide deck.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import automizerModule from 'pptx-automizer';
import { generate } from '../../dist/engine/index.js';
import { CORPUS, median, ms, report, ROOT, rounds } from '../support.js';

const TEMPLATE_PATH = join(CORPUS, 'Open-XML-SDK', 'Chart_2D.pptx');
const TEMPLATE = new Uint8Array(readFileSync(TEMPLATE_PATH));
const ROUNDS = rounds(15);

/** Slide s: `categories` × `series` of distinct values. */
function chartData(s, categories, series) {
  return {
    categories: Array.from({ length: categories }, (_, i) => `Month ${i + 1}`),
    series: Array.from({ length: series }, (_, k) => ({
      name: `Series ${k + 1}`,
      values: Array.from({ length: categories }, (_, i) => s * 0.5 + k * 10 + i),
    })),
  };
}

function payload(slides, categories, series) {
  return {
    presentation: {
      template: 'Chart_2D.pptx',
      slides: Array.from({ length: slides }, (_, s) => ({
        slide_index: 0,
        shapes: [{ name: 'Chart 5', content: chartData(s, categories, series) }],
      })),
    },
  };
}

function deckforge(slides, categories, series) {
  const files = new Map([['Chart_2D.pptx', TEMPLATE]]);
  const body = payload(slides, categories, series);
  return () => generate({ payload: body, files }).bytes;
}

function automizer(slides, categories, series) {
  const Automizer = automizerModule.default ?? automizerModule.Automizer;
  const { modify } = automizerModule;
  const data = Array.from({ length: slides }, (_, s) => {
    const d = chartData(s, categories, series);
    return {
      series: d.series.map((x) => ({ label: x.name })),
      categories: d.categories.map((label, i) => ({ label, values: d.series.map((x) => x.values[i]) })),
    };
  });
  return async () => {
    const pres = new Automizer({
      templateDir: dirname(TEMPLATE_PATH),
      removeExistingSlides: true,
      autoImportSlideMasters: false,
      verbosity: 0,
    })
      .loadRoot('Chart_2D.pptx')
      .load('Chart_2D.pptx', 'template');
    for (const d of data)
      pres.addSlide('template', 1, (slide) => slide.modifyElement('Chart 5', [modify.setChartData(d)]));
    const zip = await pres.getJSZip();
    return zip.generateAsync({ type: 'uint8array' });
  };
}

/**
 * This thread's time on a core and time runnable but waiting for one, in ms (Linux `schedstat`; NaN elsewhere).
 * On a loaded machine wall time is on-core time plus waiting: the waiting is the load, not the engine.
 */
function schedstat() {
  try {
    const [onCpu, waiting] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return { onCpu: onCpu / 1e6, waiting: waiting / 1e6 };
  } catch {
    return { onCpu: NaN, waiting: NaN };
  }
}

/** Garbage collection pauses seen by this process, in ms, summed as they are reported. */
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

/**
 * Median wall time of `rounds` runs after warm-up, and median CPU time (user + system of this process): on a
 * shared machine the CPU time moves less with what else runs.
 */
async function time(fn, rounds, warmupMs) {
  const warmUntil = performance.now() + warmupMs;
  do await fn();
  while (performance.now() < warmUntil);
  const samples = [];
  const cpu = [];
  const onCpu = [];
  const waiting = [];
  const gc = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    const usage = process.cpuUsage();
    const sched = schedstat();
    const gcBefore = gcMs;
    await fn();
    const used = process.cpuUsage(usage);
    samples.push(performance.now() - start);
    const after = schedstat();
    cpu.push((used.user + used.system) / 1000);
    onCpu.push(after.onCpu - sched.onCpu);
    waiting.push(after.waiting - sched.waiting);
    // GC entries arrive on a later tick.
    await new Promise((done) => setImmediate(done));
    gc.push(gcMs - gcBefore);
  }
  return Object.assign(median(samples), {
    cpu: median(cpu),
    onCpu: median(onCpu),
    waiting: median(waiting),
    gc: median(gc),
  });
}

/** A whole process generating the C2 deck: its peak RSS (maxRSS at exit), median of 5 runs. */
function processRss() {
  const dir = mkdtempSync(join(tmpdir(), 'deckforge-chart-bench-'));
  const script = join(dir, 'c2.mjs');
  writeFileSync(
    script,
    `import { readFileSync } from 'node:fs';
import { generate } from ${JSON.stringify(join(ROOT, 'dist', 'engine', 'index.js'))};
const body = JSON.parse(readFileSync(${JSON.stringify(join(dir, 'payload.json'))}, 'utf8'));
const out = generate({ payload: body, files: new Map([['Chart_2D.pptx', new Uint8Array(readFileSync(${JSON.stringify(TEMPLATE_PATH)}))]]) });
process.stderr.write('bytes=' + out.bytes.length + ' maxRSS=' + process.resourceUsage().maxRSS + '\\n');`,
  );
  writeFileSync(join(dir, 'payload.json'), JSON.stringify(payload(200, 50, 6)));
  const rss = [];
  let bytes = 0;
  for (let i = 0; i < 5; i++) {
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(run.stderr);
    rss.push(Number(/maxRSS=(\d+)/.exec(run.stderr)?.[1]) / 1024);
    bytes = Number(/bytes=(\d+)/.exec(run.stderr)?.[1]);
  }
  return { rss: median(rss), bytes };
}

const { print, save } = report('charts');

const rss = processRss();
print(
  `Chart benchmark, ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${ROUNDS} rounds (median), template Open-XML-SDK/Chart_2D.pptx`,
);
print('');
print(
  '| scenario | deckforge (first request) | pptx-automizer | automizer ÷ deckforge | CPU: deckforge | CPU: automizer | CPU ratio |',
);
print('|---|---:|---:|---:|---:|---:|---:|');
const c1 = await time(deckforge(20, 12, 3), ROUNDS, 3000);
const c1peer = await time(automizer(20, 12, 3), ROUNDS, 3000);
print(
  `| C1: 20 slides × chart 12 × 3 | ${ms(c1)} | ${ms(c1peer)} | ${(c1peer / c1).toFixed(1)}× | ${ms(c1.cpu)} | ${ms(c1peer.cpu)} | ${(c1peer.cpu / c1.cpu).toFixed(1)}× |`,
);
print('');
print(
  `C1, deckforge, medians per run: main thread on a core ${ms(c1.onCpu)}, runnable but waiting for a core ${ms(c1.waiting)}, GC ${ms(c1.gc)}; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}.`,
);
print('');
print('C2: slides of a 50 × 6 chart each (deckforge, first request): cost per slide should stay flat.');
print('');
print('| slides | time | per slide | CPU | CPU per slide |');
print('|---:|---:|---:|---:|---:|');
for (const slides of [50, 100, 200]) {
  const t = await time(deckforge(slides, 50, 6), slides > 100 ? 5 : ROUNDS, 0);
  print(
    `| ${slides} | ${ms(t)} | ${((t / slides) * 1000).toFixed(0)} µs | ${ms(t.cpu)} | ${((t.cpu / slides) * 1000).toFixed(0)} µs |`,
  );
}
print('');
print(
  `C2 as a whole process (200 slides, ${(rss.bytes / 1e6).toFixed(1)} MB output): peak RSS ${rss.rss.toFixed(0)} MB (median of 5).`,
);
save();
