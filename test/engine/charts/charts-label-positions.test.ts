/**
 * `chartDataLabelPosition` on every plot family: PowerPoint reports a corrupt slide for a series' `c:dLblPos`
 * its chart group does not allow, though the schema does ([MS-OI29500] 2.1.1456). Each family
 * gets every position; the allowed ones are written on every series' labels, the others nowhere, with a warning.
 * One deck holds every family × position and is validated once.
 */
import { describe, expect, it } from 'vitest';
import { generate } from '../../../src/engine/index.js';
import { chartItemOf, packageFiles, textOf } from '../../support/readers/chart-reading.js';
import { generatedChartsDeck, PLOT_FAMILIES } from '../../support/decks/chart-templates.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { slideParts } from '../../support/decks/deck.js';

/** The payload's positions and the ST_DLblPos value each stands for. */
const POSITIONS: Record<string, string> = {
  BestFit: 'bestFit',
  Center: 'ctr',
  InsideBase: 'inBase',
  InsideEnd: 'inEnd',
  OutsideEnd: 'outEnd',
  Left: 'l',
  Right: 'r',
  Top: 't',
  Bottom: 'b',
};
const BAR_CLUSTERED = ['ctr', 'inBase', 'inEnd', 'outEnd'];
const BAR_STACKED = ['ctr', 'inBase', 'inEnd'];
const POINT = ['ctr', 'l', 'r', 't', 'b'];
const PIE = ['bestFit', 'ctr', 'inEnd', 'outEnd'];

/** [MS-OI29500] 2.1.1456: what a series' label position may be, by chart group (and bar grouping). */
const ALLOWED: Record<string, string[]> = {
  'bar clustered': BAR_CLUSTERED,
  'bar stacked': BAR_STACKED,
  'bar 100 % stacked': BAR_STACKED,
  'bar 3-D': [],
  line: POINT,
  'line 3-D': [],
  stock: POINT,
  scatter: POINT,
  bubble: POINT,
  pie: PIE,
  'pie 3-D': PIE,
  'pie of pie': PIE,
  doughnut: [],
  area: [],
  'area 3-D': [],
  radar: [],
  surface: [],
};

describe('data label positions by plot family', () => {
  const deck = generatedChartsDeck(PLOT_FAMILIES);
  const families = deck.types;
  const cases = families.flatMap((family, f) =>
    Object.keys(POSITIONS).map((position) => ({ family, slide: f + 1, position })),
  );
  const result = generate({
    files: new Map([['t.pptx', deck.bytes]]),
    payload: {
      presentation: {
        template: 't.pptx',
        slides: cases.map((c) => ({
          slide_index: c.slide,
          shapes: [
            {
              name: 'Chart 5',
              settings: {
                chartDataLabelPosition: c.position,
                ...(c.family.endsWith('labels deleted') ? {} : { isChartLabelValueVisible: true }),
              },
            },
          ],
        })),
      },
    },
  });
  const files = packageFiles(result.bytes);
  const order = slideParts(result.bytes);
  /** Each series' label position on output slide `i` (undefined: labels without one; null: no labels). */
  const seriesPositions = (i: number): (string | null | undefined)[] => {
    const xml = textOf(files, chartItemOf(files, order[i] as string, 6));
    return [...xml.matchAll(/<c:ser>([\s\S]*?)<\/c:ser>/g)].map((m) => {
      const labels = /<c:dLbls>([\s\S]*?)<\/c:dLbls>/.exec(m[1] as string)?.[1];
      if (labels === undefined) return null;
      return /<c:dLblPos val="([^"]+)"\/>/.exec(labels)?.[1];
    });
  };
  const warningsOf = (i: number): string[] =>
    result.warnings
      .filter((w) => w.path === `presentation.slides[${i}].shapes[0].settings`)
      .map((w) => w.message);

  it('the deck with every family and position is sound', async () => {
    await expectValidPptx(result.bytes, deck.bytes);
  }, 120_000);

  it.each(Object.keys(ALLOWED))('%s', (family) => {
    const allowed = ALLOWED[family]!;
    for (const [i, c] of cases.entries()) {
      if (c.family !== family) continue;
      const value = POSITIONS[c.position]!;
      const positions = seriesPositions(i);
      const where = `${family}, ${c.position}`;
      expect(positions.length, where).toBeGreaterThan(0);
      if (allowed.includes(value)) {
        expect(positions, where).toEqual(positions.map(() => value));
        expect(warningsOf(i), where).toEqual([]);
      } else {
        expect(
          positions.every((p) => p !== value && p === (family === 'surface' ? null : undefined)),
          where,
        ).toBe(true);
        expect(warningsOf(i), where).toContainEqual(
          expect.stringContaining(`chartDataLabelPosition "${value}" is not a position PowerPoint allows`),
        );
      }
    }
  });

  it('labels the template deleted stay deleted: no position is written into them', () => {
    for (const [i, c] of cases.entries()) {
      if (!c.family.endsWith('labels deleted')) continue;
      const xml = textOf(files, chartItemOf(files, order[i] as string, 6));
      expect(xml, c.position).not.toContain('<c:dLblPos');
      expect(warningsOf(i), c.position).toContainEqual(
        expect.stringContaining('the chart shows no data labels'),
      );
    }
  });
});
