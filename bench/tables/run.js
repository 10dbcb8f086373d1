#!/usr/bin/env node
/**
 * Table benchmark: deckforge vs pptx-automizer on the same template and the same work, in one run.
 * Run after `npm run build`:   node bench/tables/run.js [--rounds N]
 *
 * T1: ShapeCrawler/table-case004.pptx, 20 output slides, each filling "Table 1" (6 × 5 in the template, empty
 *     cells) with a 10 × 5 matrix of distinct strings. pptx-automizer: addSlide + modifyElement(setTable).
 * T2: markitdown/test.pptx, one slide whose "Table 6" (4 × 6) gets 2 000 × 6 rows with "overflow": "continue";
 *     scaling at 500 / 2 000 / 8 000 rows, and `deckforge generate` as a process (wall time, peak RSS).
 *     pptx-automizer cannot continue a table on new slides: it is timed putting the 2 000 rows in one table.
 * In-process timings are wall-clock medians from template bytes to output bytes after warm-up runs; "first"
 * opens the template every time (no cache), "cold" is the very first call in a fresh process.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import automizerModule from 'pptx-automizer';
import { generate, TemplateCache } from '../../dist/engine/index.js';
import { CORPUS, generateRuns, median, ms, report, ROOT, rounds, time } from '../support.js';

const ROUNDS = rounds(15);

const T1_PATH = join(CORPUS, 'ShapeCrawler', 'table-case004.pptx');
const T1_TEMPLATE = new Uint8Array(readFileSync(T1_PATH));
const T2_PATH = join(CORPUS, 'markitdown', 'test.pptx');
const T2_TEMPLATE = new Uint8Array(readFileSync(T2_PATH));

/** 20 slides × a 10 × 5 matrix of distinct strings. */
const t1Rows = (slide) =>
  Array.from({ length: 10 }, (_, r) => Array.from({ length: 5 }, (_, c) => `S${slide} R${r} C${c}`));

function t1Payload() {
  return {
    presentation: {
      template: 'case4.pptx',
      slides: Array.from({ length: 20 }, (_, s) => ({
        slide_index: 0,
        shapes: [{ name: 'Table 1', content: t1Rows(s) }],
      })),
    },
  };
}

/** One slide, `rows` × 6 with "overflow": "continue". */
function t2Payload(rows) {
  const content = [
    ['Order', 'Customer', 'Date', 'Amount', 'Status', 'Note'],
    ...Array.from({ length: rows - 1 }, (_, r) => [
      `A-${10000 + r}`,
      `Customer ${r % 97}`,
      `2026-${String((r % 12) + 1).padStart(2, '0')}-${String((r % 28) + 1).padStart(2, '0')}`,
      (r * 37.25) % 10000,
      r % 3 === 0 ? 'open' : 'paid',
      r % 10 === 0 ? 'call back before the end of the month' : '',
    ]),
  ];
  return {
    presentation: {
      template: 'test.pptx',
      slides: [{ slide_index: 2, shapes: [{ name: 'Table 6', content, overflow: 'continue' }] }],
    },
  };
}

function deckforge(payload, name, template, cache) {
  const files = new Map([[name, template]]);
  return () => generate({ payload, files, ...(cache ? { cache } : {}) });
}

function automizerT1() {
  const Automizer = automizerModule.default ?? automizerModule.Automizer;
  const { modify } = automizerModule;
  return async () => {
    const pres = new Automizer({
      templateDir: dirname(T1_PATH),
      removeExistingSlides: true,
      autoImportSlideMasters: false,
      verbosity: 0,
    })
      .loadRoot('table-case004.pptx')
      .load('table-case004.pptx', 'template');
    for (let s = 0; s < 20; s++) {
      const body = t1Rows(s).map((values) => ({ values }));
      pres.addSlide('template', 1, (slide) => {
        slide.modifyElement('Table 1', [modify.setTable({ body })]);
      });
    }
    const zip = await pres.getJSZip();
    return zip.generateAsync({ type: 'uint8array' });
  };
}

/**
 * pptx-automizer putting `rows` × 6 into the one table on one slide (it cannot continue a table on new slides),
 * once, in a child process with a time limit: its cost grows faster than the rows.
 */
function automizerT2(rows, limitMs) {
  const script = `
    import automizerModule from 'pptx-automizer';
    const Automizer = automizerModule.default ?? automizerModule.Automizer;
    const { modify } = automizerModule;
    const body = JSON.parse(process.argv[1]).map((values) => ({ values: values.map(String) }));
    const start = performance.now();
    const pres = new Automizer({ templateDir: ${JSON.stringify(dirname(T2_PATH))}, removeExistingSlides: true,
      autoImportSlideMasters: false, verbosity: 0 }).loadRoot('test.pptx').load('test.pptx', 'template');
    pres.addSlide('template', 3, (slide) => { slide.modifyElement('Table 6', [modify.setTable({ body })]); });
    const zip = await pres.getJSZip();
    await zip.generateAsync({ type: 'uint8array' });
    console.log(performance.now() - start);`;
  const content = t2Payload(rows).presentation.slides[0].shapes[0].content;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(content)], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: limitMs,
  });
  if (run.error || run.status !== 0) return null;
  return Number(run.stdout.trim());
}

/** The very first generate of a fresh process (module load excluded): no warm JIT, no cache. */
function coldFirstCall(scenario) {
  const script = `
    import { readFileSync } from 'node:fs';
    import { generate } from ${JSON.stringify(join(ROOT, 'dist', 'engine', 'index.js'))};
    const [payload, name, path] = JSON.parse(process.argv[1]);
    const files = new Map([[name, new Uint8Array(readFileSync(path))]]);
    const start = performance.now();
    generate({ payload, files });
    console.log(performance.now() - start);`;
  const args =
    scenario === 'T1' ? [t1Payload(), 'case4.pptx', T1_PATH] : [t2Payload(2000), 'test.pptx', T2_PATH];
  const walls = [];
  for (let i = 0; i < 7; i++) {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(args)], {
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(run.stderr);
    walls.push(Number(run.stdout.trim()));
  }
  return median(walls);
}

const PROCESS_RUNS = 11;

/** `deckforge generate` for T2 as a whole process: wall time and peak RSS (reported by the child at exit). */
function cliRun(rows) {
  const dir = mkdtempSync(join(tmpdir(), 'deckforge-bench-'));
  const payloadPath = join(dir, 'payload.json');
  writeFileSync(payloadPath, JSON.stringify(t2Payload(rows)));
  const runs = generateRuns([T2_PATH, payloadPath, '-o', join(dir, 'out.pptx'), '-q'], PROCESS_RUNS);
  const rss = runs.map((r) => r.rss);
  return { wall: median(runs.map((r) => r.wall)), rss: Math.max(...rss), rssMedian: median(rss) };
}

const { print, save } = report('tables');

// Process runs first (see bench/engine/run.js: measured after the in-process runs they read slower).
const cli = cliRun(2000);
const coldT1 = coldFirstCall('T1');
const coldT2 = coldFirstCall('T2');

print(
  `Table benchmark, ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${ROUNDS} rounds (median)`,
);
print('');
print('T1: table-case004.pptx, 20 slides × "Table 1" filled with 10 × 5 distinct strings');
print('');
print(
  '| deckforge cold (first call in a process) | deckforge first | deckforge cached | pptx-automizer | automizer ÷ deckforge first |',
);
print('|---:|---:|---:|---:|---:|');
{
  const payload = t1Payload();
  const first = await time(deckforge(payload, 'case4.pptx', T1_TEMPLATE, null), ROUNDS, 3000);
  const cached = await time(deckforge(payload, 'case4.pptx', T1_TEMPLATE, new TemplateCache()), ROUNDS, 3000);
  const peer = await time(automizerT1(), ROUNDS, 3000);
  print(`| ${ms(coldT1)} | ${ms(first)} | ${ms(cached)} | ${ms(peer)} | ${(peer / first).toFixed(1)}× |`);
}
print('');
print(
  'T2: markitdown/test.pptx, one slide, "Table 6" with N × 6 rows and "overflow": "continue" (deckforge first)',
);
print('');
print('| rows | output slides | time | per 1 000 rows |');
print('|---:|---:|---:|---:|');
for (const rows of [500, 2000, 8000]) {
  const payload = t2Payload(rows);
  const run = deckforge(payload, 'test.pptx', T2_TEMPLATE, null);
  const slides = run().slideCount;
  const t = await time(run, rows > 2000 ? 5 : ROUNDS, rows > 2000 ? 0 : 2000);
  print(`| ${rows} | ${slides} | ${ms(t)} | ${ms((t / rows) * 1000)} |`);
}
print('');
const LIMIT_MS = 120_000;
const peers = [100, 500, 2000].map((rows) => {
  const t = automizerT2(rows, LIMIT_MS);
  return `${rows} rows ${t === null ? `> ${LIMIT_MS / 1000} s (stopped)` : ms(t)}`;
});
print(`T2, 2 000 rows: deckforge cold (first call in a process) ${ms(coldT2)}.`);
print(
  `pptx-automizer putting N × 6 rows into the one table of one slide (it has no continuation; one run each, in a child process): ${peers.join(', ')}.`,
);
print(
  `\`deckforge generate\` as a process, T2 (2 000 rows): ${ms(cli.wall)} wall (median of ${PROCESS_RUNS} after one warm-up), peak RSS ${cli.rss.toFixed(0)} MB (largest of the runs; median ${cli.rssMedian.toFixed(0)} MB).`,
);
// CPU time (user + system, GC threads included) of the same calls: on a shared machine, wall time mostly
// measures the neighbours.
print('');
print('CPU time per call (process.cpuUsage, median and least, after the runs above warmed the code):');
print('');
print('| scenario | calls | CPU median | CPU least |');
print('|---|---:|---:|---:|');
for (const [label, run, calls] of [
  ['T1', deckforge(t1Payload(), 'case4.pptx', T1_TEMPLATE, null), 60],
  ['T2, 500 rows', deckforge(t2Payload(500), 'test.pptx', T2_TEMPLATE, null), 20],
  ['T2, 2 000 rows', deckforge(t2Payload(2000), 'test.pptx', T2_TEMPLATE, null), 12],
  ['T2, 8 000 rows', deckforge(t2Payload(8000), 'test.pptx', T2_TEMPLATE, null), 5],
]) {
  const samples = [];
  for (let i = 0; i < calls; i++) {
    const before = process.cpuUsage();
    run();
    const used = process.cpuUsage(before);
    samples.push((used.user + used.system) / 1000);
  }
  print(`| ${label} | ${calls} | ${ms(median(samples))} | ${ms(Math.min(...samples))} |`);
}
save();
