/**
 * As a property: any producer may name a namespace with any prefix. A deck whose every part (embedded
 * workbooks included) has every prefix renamed to random, valid, distinct ones — the canonical prefixes of other
 * namespaces among them, so that "a" may mean PresentationML — gives, for the same payload, the same deck as the
 * original does, compared by namespace (`{uri}local`, test/support/decks/namespace-prefixes.ts), and the same
 * `inspect`. For text, notes, tables and continued tables, pictures and charts (caches and workbook cells), on
 * the project's templates and on a sample of corpus decks.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { inspect, type GenerateResult } from '../../../src/engine/index.js';
import { ConversionProcess } from '../../../src/image-preparation/conversion-process.js';
import { GENERATED_CHARTS, generatedChartsDeck } from '../../support/decks/chart-templates.js';
import { corpusFiles, itCorpus, readCorpus } from '../../support/corpus/corpus.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { generateWithImages } from '../../support/decks/generate-with-images.js';
import { packageClarkForm, renamePackagePrefixes, seeded } from '../../support/decks/namespace-prefixes.js';
import { png, BLUE } from '../../support/decks/test-images.js';
import { SAMPLE } from '../../support/decks/deck.js';
import { SAMPLE_WITH_SHAPES } from '../sample-with-shapes.js';

/** Images are converted in a child process, as in the worker thread (one for the whole file). */
const converter = new ConversionProcess({ timeoutMs: 60_000, memoryMb: 2048 });
afterAll(() => converter.close());

const TIMEOUT = 240_000;
const SEEDS = [1, 2, 3];

async function build(
  template: Uint8Array,
  presentation: Record<string, unknown>,
  files: Record<string, Uint8Array> = {},
): Promise<GenerateResult> {
  const fileMap = new Map<string, Uint8Array>([['template.pptx', template], ...Object.entries(files)]);
  const payload = { presentation: { template: 'template.pptx', ...presentation } };
  return generateWithImages(payload, fileMap, { converter });
}

/** Values the engine draws at random for each deck (a copied slide's creation id). */
function unrandom(_item: string, text: string): string {
  return text.replace(
    /(\{http:\/\/schemas\.microsoft\.com\/office\/powerpoint\/2010\/main\}creationId val=")\d+/g,
    '$1#',
  );
}

/** What inspect reads, but the parts' sizes (longer or shorter prefixes change them). */
function inspectedByName(template: Uint8Array): unknown {
  return JSON.parse(
    JSON.stringify(inspect(template), (key, value: unknown) => (key === 'xmlBytes' ? undefined : value)),
  );
}

/** The same payload on `template` and on `template` renamed by each seed: the same deck, the same warnings. */
async function expectPrefixBlind(
  template: Uint8Array,
  presentation: Record<string, unknown>,
  files: Record<string, Uint8Array> = {},
  validate = true,
): Promise<void> {
  const original = await build(template, presentation, files);
  const expected = packageClarkForm(original.bytes, unrandom);
  const inspected = inspectedByName(template);
  for (const seed of SEEDS) {
    const renamed = renamePackagePrefixes(template, seeded(seed));
    expect(inspectedByName(renamed), `inspect, seed ${seed}`).toEqual(inspected);
    const result = await build(renamed, presentation, files);
    expect(result.warnings, `warnings, seed ${seed}`).toEqual(original.warnings);
    const actual = packageClarkForm(result.bytes, unrandom);
    expect(Object.keys(actual).sort(), `parts, seed ${seed}`).toEqual(Object.keys(expected).sort());
    for (const item of Object.keys(expected)) {
      // Where they first differ, so that a failure reads in a line.
      const [a, b] = [actual[item] ?? '', expected[item]!];
      let at = 0;
      while (at < a.length && a[at] === b[at]) at++;
      expect(a.slice(Math.max(0, at - 200), at + 200), `${item}, seed ${seed}`).toBe(
        b.slice(Math.max(0, at - 200), at + 200),
      );
    }
    if (validate && seed === SEEDS[0]) await expectValidPptx(result.bytes, renamed);
  }
}

describe('a deck gives the same output whatever prefixes its parts use', () => {
  it(
    'text and notes',
    async () => {
      await expectPrefixBlind(SAMPLE, {
        slides: [
          { slide_index: 0, shapes: [{ name: 'Title', content: 'Renamed' }], notes: 'Say it twice' },
          { slide_index: 1, shapes: [{ name: 'Body', content: 'One\nTwo' }] },
          { slide_index: 1 },
          { slide_index: 2 },
        ],
      });
    },
    TIMEOUT,
  );

  it(
    'tables, continued tables and pictures',
    async () => {
      const rows = Array.from({ length: 14 }, (_, r) => [`Region ${r}`]);
      await expectPrefixBlind(
        SAMPLE_WITH_SHAPES,
        {
          slides: [
            {
              slide_index: 1,
              shapes: [
                { name: 'Table 1', content: rows, overflow: 'continue' },
                { name: 'Badge', filename: 'blue.png', fit: 'cover' },
              ],
            },
          ],
        },
        { 'blue.png': await png(40, 10, BLUE) },
      );
    },
    TIMEOUT,
  );

  it(
    'charts: caches and workbook cells',
    async () => {
      const types = ['line stacked with markers', 'column stacked'];
      const deck = generatedChartsDeck(Object.fromEntries(types.map((t) => [t, GENERATED_CHARTS[t]!])));
      const content = {
        categories: ['North', 'South', 'East', 'West', 'Centre'],
        series: [
          { name: 'Plan', values: [7, 8, 9, 10, 11] },
          { name: 'Actual', values: [6.5, 8.25, 10, null, 12] },
        ],
      };
      await expectPrefixBlind(deck.bytes, {
        slides: types.map((_, i) => ({ slide_index: i + 1, shapes: [{ name: 'Chart 5', content }] })),
      });
    },
    TIMEOUT,
  );

  // A small, fixed sample of corpus decks with charts, tables, pictures or notes: each slide once, its first text
  // shape, first table and first one-type chart (its own series names, new values) filled.
  const SAMPLE_DECKS = corpusFiles()
    .filter((f) => !f.strict && f.slides > 0 && f.slides <= 12)
    .filter((f) => ['charts', 'slides_with_tables', 'images', 'notes'].some((k) => f.features.includes(k)))
    .filter((_, i) => i % 7 === 0)
    .slice(0, 4);
  for (const file of SAMPLE_DECKS) {
    itCorpus(
      `corpus: ${file.file}`,
      async () => {
        const template = readCorpus(file);
        const slides = inspect(template).slides.map((slide) => {
          const text = slide.shapes.find((s) => s.kind === 'text');
          const table = slide.shapes.find((s) => s.kind === 'table' && s.table);
          const chart = slide.shapes.find((s) => s.kind === 'chart' && s.chart?.types.length === 1);
          return {
            slide_index: slide.index,
            shapes: [
              ...(text ? [{ name: text.name, content: 'Prefix-blind' }] : []),
              ...(table
                ? [
                    {
                      name: table.name,
                      content: [
                        ['a', 'b'],
                        ['c', 'd'],
                      ],
                    },
                  ]
                : []),
              ...(chart
                ? [
                    {
                      name: chart.name,
                      content: {
                        categories: ['one', 'two', 'three'],
                        series: chart.chart!.series.map((name, k) => ({ name, values: [k + 1, 2, 3.5] })),
                      },
                    },
                  ]
                : []),
            ],
          };
        });
        // Not validated here: the validator's comparison with the template maps parts by their text, which
        // renaming changes; the corpus sweeps validate these decks, and the output equals theirs by namespace.
        await expectPrefixBlind(template, { slides, shape_validation_mode: 'lenient' }, {}, false);
      },
      TIMEOUT,
    );
  }
});
