/**
 * Slide links: `slides` output slides, each with `links` runs that jump to output slides (docs/payload.md,
 * Links between slides), all the slides' jumps to different slides where there are enough of them. Prints the
 * wall-clock median of the generation in process, from template bytes to output bytes, after a warm-up run.
 *
 *   npx tsx bench/engine/slide-links.ts [slides=200] [links=200] [rounds=3]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from '../../src/engine/index.js';

const [slides = 200, links = 200, rounds = 3] = process.argv.slice(2).map(Number);
const template = new Uint8Array(
  readFileSync(join(import.meta.dirname, '../../examples/sample-template.pptx')),
);

const payload = {
  presentation: {
    template: 'sample-template.pptx',
    slides: Array.from({ length: slides }, (_, s) => ({
      slide_index: 1,
      shapes: [
        {
          name: 'Body',
          content: Array.from({ length: links }, (_, l) => ({
            text_run: `to ${(s + l + 1) % slides} `,
            text_properties: { hyperlink: { slide: (s + l + 1) % slides } },
          })),
        },
      ],
    })),
  },
};
const files = new Map([['sample-template.pptx', template]]);

const times: number[] = [];
for (let round = 0; round <= rounds; round++) {
  const started = performance.now();
  const { slideCount } = generate({ payload, files });
  if (slideCount !== slides) throw new Error(`made ${slideCount} slides, expected ${slides}`);
  if (round > 0) times.push(performance.now() - started); // round 0 warms up
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)] ?? 0;
console.log(
  `${slides} slides × ${links} slide links: median ${(median / 1000).toFixed(2)} s of ${rounds} rounds`,
);
