/**
 * A property over the whole corpus: a deck rewritten into equivalent XML the way other producers write it
 * (test/support/namespace-styles.ts: namespaces declared on the elements that use them, an explicit `xmlns:xml`
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
 * Budget: the Open XML SDK validator takes seconds per deck, so it runs on a bounded sample only: the
 * VALIDATED_PER_STYLE smallest decks with charts that it finds clean, in each style. The whole file (476 tests)
 * took about 2 min 10 s of CPU, 3 min 15 s of wall time on a shared 2-core machine (load average about 4).
 */
import { beforeAll, expect, it } from 'vitest';
import { generate, inspect, type GenerateResult, type InspectResult } from '../../src/engine/index.js';
import { corpusFiles, describeCorpus, readCorpus, type CorpusFile } from '../support/corpus/corpus.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { NAMESPACE_STYLES, namespaceErrors, restylePackage } from '../support/decks/namespace-styles.js';
import { checkPackageInvariantsAgainst } from '../support/checks/package-invariants.js';
import { png } from '../support/decks/test-images.js';

const decks = corpusFiles().filter((d) => !d.strict && d.slides > 0);
const VALIDATED_PER_STYLE = 2;
const validated = new Set(
  decks
    // Templates the validator finds clean: the comparison with a template maps parts by their text, which
    // restyling changes, so a template's own errors would count as new ones.
    .filter((d) => d.features.includes('charts') && d.baseline === 0)
    .sort((a, b) => a.bytes - b.bytes)
    .slice(0, VALIDATED_PER_STYLE)
    .map((d) => d.file),
);
const TIMEOUT = 300_000;
/** Slides cloned and filled per deck: the decks of megabyte-sized slides would take minutes otherwise. */
const SAMPLED_SLIDES = 4;
const PICTURE = 'picture.png';
let picture: Uint8Array;

beforeAll(async () => {
  picture = await png(60, 40);
});

/** Up to SAMPLED_SLIDES slides, spread over the deck (its first and last among them), in reverse order. */
function sampledSlides(info: InspectResult): number[] {
  const n = info.slides.length;
  const count = Math.min(n, SAMPLED_SLIDES);
  const picks = Array.from({ length: count }, (_, k) =>
    count === 1 ? 0 : Math.round((k * (n - 1)) / (count - 1)),
  );
  return [...new Set(picks)].reverse();
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

describeCorpus('every corpus deck, rewritten in each namespace style, gives the same deck', () => {
  it('covers the corpus, and validates a sample in each style', () => {
    expect(decks.length).toBeGreaterThan(80);
    expect(validated.size).toBe(VALIDATED_PER_STYLE);
  });

  for (const style of NAMESPACE_STYLES) {
    it.for(decks.map((d) => [d.file, d] as const))(`${style}: %s`, { timeout: TIMEOUT }, async ([, deck]) => {
      const { info, output, warnings } = original(deck);
      const template = restylePackage(readCorpus(deck), style);
      const result = build(template, slidesFor(info));
      expect(namespaceErrors(result.bytes), 'parts a namespace-aware reader refuses').toEqual([]);
      expect(checkPackageInvariantsAgainst(result.bytes, template)).toEqual([]);
      expect(result.warnings).toEqual(warnings);
      expect(readBack(result.bytes)).toEqual(output);
      if (validated.has(deck.file)) await expectValidPptx(result.bytes, template);
    });
  }
});
