#!/usr/bin/env node
/**
 * Chart size benchmark: filling one chart must cost time linear in its points (categories × series).
 * After `npm run build`:
 *   node bench/chart-points/run.js [--rounds N] [--dist path/to/dist]
 *
 * Open-XML-SDK/Chart_2D.pptx's "Chart 5" (embedded workbook) filled with 1 000, 10 000 and 100 000 points in
 * three shapes: one series of many categories, many series of 10 categories, and a square. Each figure is the
 * median wall and CPU time of one in-process generation after one warm-up run; the time per point should stay
 * flat as the points grow tenfold. `--dist` measures another build (an older commit's) with the same cases.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CORPUS, median, ms, option, report, ROOT, rounds } from '../support.js';

const DIST = resolve(option('dist', join(ROOT, 'dist')));
const { generate } = await import(pathToFileURL(join(DIST, 'engine', 'index.js')).href);
const TEMPLATE = new Uint8Array(readFileSync(join(CORPUS, 'Open-XML-SDK', 'Chart_2D.pptx')));
const ROUNDS = rounds(3);

function payload(categories, series) {
  return {
    presentation: {
      template: 'Chart_2D.pptx',
      slides: [
        {
          slide_index: 0,
          shapes: [
            {
              name: 'Chart 5',
              content: {
                categories: Array.from({ length: categories }, (_, i) => `Category ${i + 1}`),
                series: Array.from({ length: series }, (_, k) => ({
                  name: `Series ${k + 1}`,
                  values: Array.from({ length: categories }, (_, i) => k * 0.5 + i),
                })),
              },
            },
          ],
        },
      ],
    },
  };
}

/** Median wall and CPU (user + system) ms of `ROUNDS` generations, after one untimed run. */
function measure(categories, series) {
  const body = payload(categories, series);
  const run = () => generate({ payload: body, files: new Map([['Chart_2D.pptx', TEMPLATE]]) });
  run();
  const wall = [];
  const cpu = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    const usage = process.cpuUsage();
    run();
    const used = process.cpuUsage(usage);
    wall.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

const SHAPES = [
  ['one series', (points) => [points, 1]],
  ['series of 10 categories', (points) => [10, points / 10]],
  ['square', (points) => [Math.round(Math.sqrt(points)), Math.round(Math.sqrt(points))]],
];

const { print, save } = report('chart-points');
print(
  `Chart size benchmark, ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${ROUNDS} rounds (median), ${DIST === join(ROOT, 'dist') ? 'this build' : DIST}`,
);
print('');
print('| shape | points | categories × series | time | CPU | CPU per point |');
print('|---|---:|---:|---:|---:|---:|');
for (const [shape, dims] of SHAPES) {
  for (const points of [1_000, 10_000, 100_000]) {
    const [categories, series] = dims(points);
    const t = measure(categories, series);
    print(
      `| ${shape} | ${points} | ${categories} × ${series} | ${ms(t.wall)} | ${ms(t.cpu)} | ${((t.cpu / (categories * series)) * 1000).toFixed(1)} µs |`,
    );
  }
}
print('');
print(
  `Load average after the run: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}.`,
);
save();
