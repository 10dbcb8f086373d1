/**
 * A property over the whole corpus: a deck rewritten into equivalent XML the way other producers write it
 * (test/support/decks/namespace-styles.ts: namespaces declared on the elements that use them, an explicit `xmlns:xml`
 * with a default namespace, a default namespace for the part's main vocabulary, every prefix renamed, chart sheet
 * names quoted in one formula and bare in the next) gives the same deck as the original does.
 *
 * Each valid deck, in each style, goes through one generation that runs every scenario kind at once: its slides
 * cloned (all of them for decks of up to SAMPLED_SLIDES slides, else that many spread over the deck, first and
 * last included; in reverse order, the first one twice), and on each clone every text shape, the first table, the
 * first one-type chart and the first picture filled. Every XML part of every output (relationships, content types and
 * the parts of embedded workbooks included) must read with the strict namespace-aware reader of
 * test/support/readers/xml-tree.ts, and the output must pass the package invariants against its restyled template, read
 * back (inspect) as the original deck's output does, and warn as it does (a chart whose workbook the original
 * updates is updated here too).
 *
 * Budget: every deck goes through the sweep in one style, not in all five: the styles that touch every part take
 * turns over the corpus (deck k in style k mod 4), and `sheet-names`, which only changes chart formulas, takes
 * every deck with charts. Each style still meets ~20 decks from every producer, and every deck meets one style;
 * five styles on every deck took 2 min 30 s on a 2-core machine and found nothing the lean sweep would not.
 * The Open XML SDK validator takes seconds per deck, so it runs on a bounded sample: the VALIDATED smallest
 * decks with charts that it finds clean, in every style.
 */
import { beforeAll, expect, it } from 'vitest';
import { generate, inspect, type GenerateResult, type InspectResult } from '../../../src/engine/index.js';
import {
  corpusFiles,
  describeCorpus,
  readCorpus,
  spread,
  type CorpusFile,
} from '../../support/corpus/corpus.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import {
  NAMESPACE_STYLES,
  namespaceErrors,
  restylePackage,
  type NamespaceStyle,
} from '../../support/decks/namespace-styles.js';
import { checkPackageInvariantsAgainst } from '../../support/checks/package-invariants.js';
import { png } from '../../support/decks/test-images.js';

const decks = corpusFiles().filter((d) => !d.strict && d.slides > 0);
const VALIDATED = 2;
const validated = new Set(
  decks
    // Templates the validator finds clean: the comparison with a template maps parts by their text, which
    // restyling changes, so a template's own errors would count as new ones.
    .filter((d) => d.features.includes('charts') && d.baseline === 0)
    .sort((a, b) => a.bytes - b.bytes)
    .slice(0, VALIDATED)
    .map((d) => d.file),
);
const TIMEOUT = 300_000;

/** The styles deck `k` of the sweep is rewritten in (see the budget above). */
function stylesOf(deck: CorpusFile, k: number): NamespaceStyle[] {
  if (validated.has(deck.file)) return [...NAMESPACE_STYLES];
  const everyPart = NAMESPACE_STYLES.filter((s) => s !== 'sheet-names');
  return [
    everyPart[k % everyPart.length]!,
    ...(deck.features.includes('charts') ? ['sheet-names' as const] : []),
  ];
}
const sweep = decks.flatMap((deck, k) => stylesOf(deck, k).map((style) => [style, deck.file, deck] as const));
/** Slides cloned and filled per deck: the decks of megabyte-sized slides would take minutes otherwise. */
const SAMPLED_SLIDES = 4;
const PICTURE = 'picture.png';
let picture: Uint8Array;

beforeAll(async () => {
  picture = await png(60, 40);
});

/** Up to SAMPLED_SLIDES slides, spread over the deck (its first and last among them), in reverse order. */
function sampledSlides(info: InspectResult): number[] {
  return spread(
    info.slides.map((_, i) => i),
    SAMPLED_SLIDES,
  ).reverse();
}

/** The chart content a chart of these types takes: values per category, x and y, or x, y and size. */
function chartContent(types: string, series: string[]): unknown {
  const values = (k: number): number[] => [k + 1, 2, 3.5];
  if (/bubble/.test(types))
    return { series: series.map((name, k) => ({ name, x: [1, 2, 3], y: values(k), size: [1, 2, 1] })) };
  if (/scatter/.test(types))
    return { series: series.map((name, k) => ({ name, x: [1, 2, 3], y: values(k) })) };
  return {
    categories: ['one', 'two', 'three'],
    series: series.map((name, k) => ({ name, values: values(k) })),
  };
}

/** The payload: the sampled slides cloned, the first one once more, every scenario kind on each clone. */
function slidesFor(info: InspectResult): unknown[] {
  const order = [...sampledSlides(info), info.slides[0]!.index];
  return order.map((index, position) => {
    const shapes = info.slides[index]!.shapes;
    const unique = (id: number): boolean => shapes.filter((s) => s.id === id).length === 1;
    const text = shapes.filter((s) => s.kind === 'text' && unique(s.id));
    const table = shapes.find((s) => s.kind === 'table' && s.table && unique(s.id));
    const chart = shapes.find(
      (s) => s.kind === 'chart' && s.chart?.types.length === 1 && s.chart.series.length > 0 && unique(s.id),
    );
    const pic = shapes.find((s) => s.kind === 'picture' && unique(s.id));
    const columns = Math.min(table?.table?.columns ?? 0, 2);
    return {
      slide_index: index,
      shapes: [
        ...text.map((s) => ({ shapeId: s.id, content: `S${position}-shape${s.id}` })),
        ...(table && columns > 0
          ? [
              {
                shapeId: table.id,
                content: [0, 1].map((r) => Array.from({ length: columns }, (_, c) => `${r}${c}`)),
              },
            ]
          : []),
        ...(chart
          ? [{ shapeId: chart.id, content: chartContent(chart.chart!.types[0]!, chart.chart!.series) }]
          : []),
        ...(pic ? [{ shapeId: pic.id, filename: PICTURE, fit: 'cover' }] : []),
      ],
    };
  });
}

function build(template: Uint8Array, slides: unknown[]): GenerateResult {
  return generate({
    payload: { presentation: { template: 'template.pptx', slides, shape_validation_mode: 'lenient' } },
    files: new Map([
      ['template.pptx', template],
      [PICTURE, picture],
    ]),
  });
}

/** What a user reads back, without the parts' sizes (prefixes and declarations change them). */
function readBack(bytes: Uint8Array): unknown {
  return JSON.parse(
    JSON.stringify(inspect(bytes), (key, value: unknown) => (key === 'xmlBytes' ? undefined : value)),
  );
}

interface Expected {
  info: InspectResult;
  output: unknown;
  warnings: GenerateResult['warnings'];
}

const expected = new Map<string, Expected>();

/** The original deck's own output, computed once for all styles. */
function original(deck: CorpusFile): Expected {
  let found = expected.get(deck.file);
  if (!found) {
    const template = readCorpus(deck);
    const info = inspect(template);
    const result = build(template, slidesFor(info));
    found = { info, output: readBack(result.bytes), warnings: result.warnings };
    expected.set(deck.file, found);
  }
  return found;
}

describeCorpus(
  'every corpus deck, rewritten in the namespace style of another producer, gives the same deck',
  () => {
    it('covers the corpus and every style, and validates a sample in each style', () => {
      expect(decks.length).toBeGreaterThan(80);
      expect(validated.size).toBe(VALIDATED);
      for (const style of NAMESPACE_STYLES) {
        expect(sweep.filter(([s]) => s === style).length, style).toBeGreaterThanOrEqual(15);
      }
      expect(new Set(sweep.map(([, file]) => file)).size).toBe(decks.length);
    });

    it.for(sweep)('%s: %s', { timeout: TIMEOUT }, async ([style, , deck]) => {
      const { info, output, warnings } = original(deck);
      const template = restylePackage(readCorpus(deck), style);
      const result = build(template, slidesFor(info));
      expect(namespaceErrors(result.bytes), 'parts a namespace-aware reader refuses').toEqual([]);
      expect(checkPackageInvariantsAgainst(result.bytes, template)).toEqual([]);
      expect(result.warnings).toEqual(warnings);
      expect(readBack(result.bytes)).toEqual(output);
      if (validated.has(deck.file)) await expectValidPptx(result.bytes, template);
    });
  },
);
