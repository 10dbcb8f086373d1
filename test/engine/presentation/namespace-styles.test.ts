/**
 * The namespace styles of test/support/decks/namespace-styles.ts on the project's own templates, so that a clone
 * without the corpus exercises them too (namespace-styles-corpus.test.ts runs them over the corpus): text and
 * notes, tables and pictures, charts with their workbooks, each deck rewritten in each style. The output's every
 * XML part reads with a strict namespace-aware reader, the deck passes the package invariants and the validator
 * against its restyled template, and reads back (inspect) and warns as the original deck's output does.
 */
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { inspect, type GenerateResult } from '../../../src/engine/index.js';
import { GENERATED_CHARTS, generatedChartsDeck } from '../../support/decks/chart-templates.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { NAMESPACE_STYLES, namespaceErrors, restylePackage } from '../../support/decks/namespace-styles.js';
import { png, BLUE } from '../../support/decks/test-images.js';
import { run, SAMPLE } from '../../support/decks/deck.js';
import { SAMPLE_WITH_SHAPES } from '../sample-with-shapes.js';

const TIMEOUT = 120_000;
const chartTypes = ['line stacked with markers', 'column stacked'];
const content = {
  categories: ['North', 'South', 'East'],
  series: [
    { name: 'Plan', values: [7, 8, 9] },
    { name: 'Actual', values: [6.5, 8.25, 10] },
  ],
};

const DECKS: {
  name: string;
  template: Uint8Array;
  presentation: Record<string, unknown>;
  charts?: true;
}[] = [
  {
    name: 'text and notes, every slide cloned',
    template: SAMPLE,
    presentation: {
      slides: [
        { slide_index: 2 },
        { slide_index: 1, shapes: [{ name: 'Body', content: 'One\nTwo' }] },
        { slide_index: 0, shapes: [{ name: 'Title', content: 'Restyled' }], notes: 'Say it twice' },
        { slide_index: 0 },
      ],
    },
  },
  {
    name: 'tables and pictures',
    template: SAMPLE_WITH_SHAPES,
    presentation: {
      slides: [
        {
          slide_index: 1,
          shapes: [
            { name: 'Table 1', content: [['Region'], ['North']] },
            { name: 'Badge', filename: 'blue.png', fit: 'cover' },
          ],
        },
      ],
    },
  },
  {
    name: 'charts and their workbooks',
    charts: true,
    template: generatedChartsDeck(Object.fromEntries(chartTypes.map((t) => [t, GENERATED_CHARTS[t]!]))).bytes,
    presentation: {
      slides: chartTypes.map((_, i) => ({ slide_index: i + 1, shapes: [{ name: 'Chart 5', content }] })),
    },
  },
];

/** What a user reads back, without the parts' sizes (declarations and prefixes change them). */
/** The XML parts whose text restyling changed. */
function changedParts(before: Uint8Array, after: Uint8Array): string[] {
  const old = unzipSync(before);
  return Object.entries(unzipSync(after))
    .filter(([item, data]) => /\.(xml|rels)$/.test(item) && strFromU8(data) !== strFromU8(old[item]!))
    .map(([item]) => item);
}

function readBack(bytes: Uint8Array): unknown {
  return JSON.parse(
    JSON.stringify(inspect(bytes), (key, value: unknown) => (key === 'xmlBytes' ? undefined : value)),
  );
}

describe('a deck written in another namespace style gives the same deck', () => {
  for (const style of NAMESPACE_STYLES) {
    // Sheet names are written in chart formulas only.
    const decks = style === 'sheet-names' ? DECKS.filter((d) => d.charts) : DECKS;
    it.for(decks.map((d) => [d.name, d] as const))(
      `${style}: %s`,
      { timeout: TIMEOUT },
      async ([, { template, presentation }]) => {
        const files = { 'blue.png': await png(40, 10, BLUE) };
        const original: GenerateResult = run(template, presentation, files);
        const restyled = restylePackage(template, style);
        expect(namespaceErrors(restyled), 'the restyled template itself').toEqual([]);
        expect(changedParts(template, restyled)).not.toEqual([]);
        const result = run(restyled, presentation, files);
        expect(namespaceErrors(result.bytes)).toEqual([]);
        expect(result.warnings).toEqual(original.warnings);
        expect(readBack(result.bytes)).toEqual(readBack(original.bytes));
        await expectValidPptx(result.bytes, restyled);
      },
    );
  }
});
