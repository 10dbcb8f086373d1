#!/usr/bin/env node
/**
 * Brand benchmark (docs/payload.md "Brand"): what a theme and an embedded font cost a deck. After `npm run build`:
 *   node bench/brand/run.js [--rounds N]
 *
 * B1: examples/report.pptx, 20 output slides (its table slide and its first chart slide, each filled), in process,
 *     the template cache warm (as a server has it); median of N rounds after warm-up, the variants interleaved
 *     round by round so that they share the machine's state:
 *       plain            the deck alone
 *       theme            + presentation.theme (six accents, both fonts)
 *       font             + two embedded faces (Liberation Serif Regular and Bold, Debian's fonts-liberation2)
 *       theme + font     both, the theme naming the embedded family
 *     Each figure is given with its ratio to `plain` and the deck's size; the load average is printed before and
 *     after (figures on a shared machine move with it).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { generate, TemplateCache } from '../../dist/engine/index.js';
import { median, ms, report, ROOT, rounds } from '../support.js';

const ROUNDS = rounds(15);
const TEMPLATE = new Uint8Array(readFileSync(join(ROOT, 'examples', 'report.pptx')));
const FONT_DIR = '/usr/share/fonts/truetype/liberation2';
const FONTS = {
  'Brand-Regular.ttf': new Uint8Array(readFileSync(join(FONT_DIR, 'LiberationSerif-Regular.ttf'))),
  'Brand-Bold.ttf': new Uint8Array(readFileSync(join(FONT_DIR, 'LiberationSerif-Bold.ttf'))),
};
const THEME = {
  colors: {
    accent1: '#E6007E',
    accent2: '#00B050',
    accent3: '#7030A0',
    accent4: '#00B0F0',
    accent5: '#C00000',
    accent6: '#3B3B00',
  },
  fonts: { major: 'Liberation Serif', minor: 'Liberation Serif' },
};

function slides() {
  return Array.from({ length: 20 }, (_, i) =>
    i % 2 === 0
      ? {
          slide_index: 0,
          shapes: [
            { name: 'Title 1', content: `Quarter ${i / 2 + 1}` },
            {
              name: 'Table 1',
              content: [
                ['Region', 'Q1'],
                ['North', i],
                ['South', i + 1],
              ],
            },
          ],
        }
      : {
          slide_index: 1,
          shapes: [
            {
              name: 'Chart 5',
              content: {
                categories: ['Q1', 'Q2', 'Q3'],
                series: [{ name: 'North', values: [i, i + 1, i + 2] }],
              },
            },
          ],
        },
  );
}

const VARIANTS = {
  plain: {},
  theme: { theme: THEME },
  font: { fonts: Object.keys(FONTS) },
  'theme + font': { theme: THEME, fonts: Object.keys(FONTS) },
};

const cache = new TemplateCache(4);
function run(extra) {
  const files = new Map([['report.pptx', TEMPLATE], ...Object.entries(FONTS)]);
  const payload = { presentation: { template: 'report.pptx', slides: slides(), ...extra } };
  return generate({ payload, files, cache });
}

const out = report('brand');
out.print(
  `load average before: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
const sizes = {};
for (const [name, extra] of Object.entries(VARIANTS)) {
  const result = run(extra);
  sizes[name] = result.byteLength;
  // Warm-up: V8 optimises the paths each variant takes.
  for (let i = 0; i < 5; i++) run(extra);
}
const samples = Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, extra] of Object.entries(VARIANTS)) {
    const start = performance.now();
    run(extra);
    samples[name].push(performance.now() - start);
  }
}
const plain = median(samples.plain);
out.print(`B1: report.pptx, 20 slides, median of ${ROUNDS} interleaved rounds`);
out.print('| variant | time | ratio to plain | deck size |');
out.print('|---|---:|---:|---:|');
for (const name of Object.keys(VARIANTS)) {
  const value = median(samples[name]);
  out.print(
    `| ${name} | ${ms(value)} | ${(value / plain).toFixed(2)}× | ${(sizes[name] / 1024).toFixed(0)} KB |`,
  );
}
out.print(
  `load average after: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
out.save();
