#!/usr/bin/env node
/**
 * Engine benchmark: deckforge vs pptx-automizer on the same template and the same work, in one
 * run, reported as ratios. Run after `npm run build`:   node bench/engine/run.js [--rounds N]
 *
 * Scenario: N output slides cycling template slides 0, 1, 2 of poi/layouts.pptx, each filling its title and
 * its subtitle/body placeholder with distinct text.
 * In-process timings are wall-clock medians, from template bytes to output bytes, after warm-up runs:
 * "first" opens the template each time (no cache); "cached" reuses the template cache, as a worker
 * thread does for repeated requests on one template.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import automizerModule from 'pptx-automizer';
import { generate, inspect, TemplateCache } from '../../dist/engine/index.js';
import { CORPUS, generateRuns, median, ms, report, rounds, time } from '../support.js';

const TEMPLATE_PATH = join(CORPUS, 'poi', 'layouts.pptx');
const TEMPLATE = new Uint8Array(readFileSync(TEMPLATE_PATH));
const SLIDES = [
  { index: 0, title: 'Title 1', body: 'Subtitle 2' },
  { index: 1, title: 'Title 1', body: 'Content Placeholder 2' },
  { index: 2, title: 'Title 1', body: 'Text Placeholder 2' },
];
const ROUNDS = rounds(15);

function plan(count) {
  return Array.from({ length: count }, (_, i) => ({
    ...SLIDES[i % SLIDES.length],
    titleText: `Slide ${i + 1} title`,
    bodyText: `Body text of slide ${i + 1}`,
  }));
}

function payload(count) {
  return {
    presentation: {
      template: 'layouts.pptx',
      slides: plan(count).map((s) => ({
        slide_index: s.index,
        shapes: [
          { name: s.title, content: s.titleText },
          { name: s.body, content: s.bodyText },
        ],
      })),
    },
  };
}

/** Median of `rounds` timed runs, after warm-up runs for at least `warmupMs` (and at least one). */
function deckforge(count, cache) {
  const files = new Map([['layouts.pptx', TEMPLATE]]);
  const body = payload(count);
  return () => generate({ payload: body, files, ...(cache ? { cache } : {}) }).bytes;
}

function automizer(count) {
  const Automizer = automizerModule.default ?? automizerModule.Automizer;
  const { modify } = automizerModule;
  const slides = plan(count);
  return async () => {
    const pres = new Automizer({
      templateDir: dirname(TEMPLATE_PATH),
      removeExistingSlides: true,
      autoImportSlideMasters: false,
      verbosity: 0,
    })
      .loadRoot('layouts.pptx')
      .load('layouts.pptx', 'template');
    for (const s of slides) {
      pres.addSlide('template', s.index + 1, (slide) => {
        slide.modifyElement(s.title, [modify.setText(s.titleText)]);
        slide.modifyElement(s.body, [modify.setText(s.bodyText)]);
      });
    }
    const zip = await pres.getJSZip();
    return zip.generateAsync({ type: 'uint8array' });
  };
}

/** Process runs timed (after one untimed): a process's wall time moves by ±10 % from run to run. */
const PROCESS_RUNS = 15;

/** `deckforge generate` as a whole process: wall time and peak RSS (reported by the child at exit). */
function cliRun(count) {
  const dir = mkdtempSync(join(tmpdir(), 'deckforge-bench-'));
  const payloadPath = join(dir, 'payload.json');
  writeFileSync(payloadPath, JSON.stringify(payload(count)));
  const runs = generateRuns([TEMPLATE_PATH, payloadPath, '-o', join(dir, 'out.pptx'), '-q'], PROCESS_RUNS);
  return { wall: median(runs.map((r) => r.wall)), rss: median(runs.map((r) => r.rss)), node: nodeStart() };
}

/** `node -e 0` on the same machine in the same run: the part of the process time that is Node's own start. */
function nodeStart() {
  const walls = [];
  for (let i = 0; i < PROCESS_RUNS + 1; i++) {
    const start = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    walls.push(performance.now() - start);
  }
  return median(walls.slice(1));
}

const { print, save } = report('engine');

// The process run goes first: measured after the in-process runs, it read 50–60 ms slower, sharing the two
// cores with this process's own large heap being collected and returned in the background.
const cli = cliRun(1000);

print(
  `Engine benchmark, ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${ROUNDS} rounds (median), template poi/layouts.pptx`,
);
print('');
print(
  '| output slides | deckforge first | deckforge cached | pptx-automizer | automizer ÷ deckforge first | automizer ÷ deckforge cached |',
);
print('|---:|---:|---:|---:|---:|---:|');
for (const count of [10, 1000]) {
  // Steady state, as in a long-running server: each side warms up for the same time before it is measured
  // (a 10-slide deck takes a hundred or more runs before V8 has optimised the hot paths).
  const warmupMs = count > 100 ? 0 : 3000;
  const first = await time(deckforge(count, null), ROUNDS, warmupMs);
  const cache = new TemplateCache();
  const cached = await time(deckforge(count, cache), ROUNDS, warmupMs);
  const peer = await time(automizer(count), count > 100 ? 3 : ROUNDS, warmupMs);
  print(
    `| ${count} | ${ms(first)} | ${ms(cached)} | ${ms(peer)} | ${(peer / first).toFixed(1)}× | ${(peer / cached).toFixed(1)}× |`,
  );
}
print('');
print(
  'Template cache where the template is the bigger part of the work: every slide of a larger corpus deck once, no text.',
);
print('');
print('| template | output slides | deckforge first | deckforge cached | cached ÷ first |');
print('|---|---:|---:|---:|---:|');
for (const file of [
  'poi/ca.ubc.cs.people_~emhill_presentations_HowWeRefactor.pptx',
  'ShapeCrawler/031.pptx',
]) {
  const files = new Map([['big.pptx', new Uint8Array(readFileSync(join(CORPUS, file)))]]);
  const slideCount = inspect(files.get('big.pptx')).slides.length;
  const body = {
    presentation: {
      template: 'big.pptx',
      slides: Array.from({ length: slideCount }, (_, i) => ({ slide_index: i })),
    },
  };
  const first = await time(() => generate({ payload: body, files }).bytes, ROUNDS, 3000);
  const cache = new TemplateCache();
  const cached = await time(() => generate({ payload: body, files, cache }).bytes, ROUNDS, 3000);
  print(`| ${file} | ${slideCount} | ${ms(first)} | ${ms(cached)} | ${(cached / first).toFixed(2)} |`);
}
print('');
print('Scaling (deckforge first, no cache): cost per output slide should stay flat.');
print('');
print('| output slides | time | per slide |');
print('|---:|---:|---:|');
for (const count of [100, 1000, 5000]) {
  const first = await time(deckforge(count, null), count > 1000 ? 5 : ROUNDS);
  print(`| ${count} | ${ms(first)} | ${((first / count) * 1000).toFixed(0)} µs |`);
}
print('');
print(
  `\`deckforge generate\` as a process, 1000 slides: ${ms(cli.wall)} wall, peak RSS ${cli.rss.toFixed(0)} MB (median of ${PROCESS_RUNS} after one warm-up); \`node -e 0\` alone: ${ms(cli.node)}.`,
);
save();
