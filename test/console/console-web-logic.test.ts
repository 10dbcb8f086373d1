/**
 * The console's browser logic that needs no browser: the playground's pre-filled payload (checked by generating
 * from it with the engine), the `shapes[]` entry a click copies, where an error's JSON path sits in the editor,
 * where a shape's box is drawn, and the per-day bars of the usage chart.
 */
import { describe, expect, it } from 'vitest';
import { generate, inspect } from '../../src/engine/index.js';
import { firstJsonPath, lineAndColumn, locateJsonPath } from '../../src/console/web/json-path-locator.js';
import type { InspectResult, InspectedShape } from '../../src/console/web/inspect-types.js';
import { prefillPayload } from '../../src/console/web/payload-prefill.js';
import { isFillable, PLACEHOLDER_IMAGE, shapeEntry } from '../../src/console/web/shape-entry.js';
import { planSlide, slideSize } from '../../src/console/web/slide-geometry.js';
import { CHART, chartBars } from '../../src/console/web/usage-bars.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../support/decks/layouts-template.js';
import { REPORT_TEMPLATE } from '../support/decks/report-template.js';

function shape(overrides: Partial<InspectedShape>): InspectedShape {
  return {
    name: 'Shape',
    id: 2,
    kind: 'text',
    text: '',
    tags: [],
    placeholder: null,
    group: null,
    ...overrides,
  };
}

describe('the playground pre-fill', () => {
  it('has every slide once and one entry per fillable shape, and generates a valid deck as it stands', async () => {
    const result = inspect(REPORT_TEMPLATE) as unknown as InspectResult;
    const payload = prefillPayload(result, 'report.pptx');
    expect(payload.presentation.template).toBe('report.pptx');
    expect(payload.presentation.slides.map((s) => s.slide_index)).toEqual(result.slides.map((s) => s.index));
    const first = payload.presentation.slides[0]?.shapes ?? [];
    expect(first.map((e) => e.name)).toEqual(['Title 1', 'Table 1']);
    const table = first.find((e) => e.name === 'Table 1')?.content as string[][];
    expect(table).toHaveLength(6);
    expect(table[0]).toEqual(['Region', 'Q1', 'Q2', 'Q3', 'Q4']);
    expect(table[1]).toEqual(['R2C1', 'R2C2', 'R2C3', 'R2C4', 'R2C5']);

    const out = await generate({ payload: payload, files: new Map([['report.pptx', REPORT_TEMPLATE]]) });
    expect(out.slideCount).toBe(result.slides.length);
    await expectValidPptx(out.bytes, REPORT_TEMPLATE);
  });

  it('puts an image into pictures and picture placeholders, and leaves out date, footer and slide number', async () => {
    const template = layoutsTemplate();
    const result = inspect(template) as unknown as InspectResult;
    const payload = prefillPayload(result, 'layouts.pptx');
    const slide9 = payload.presentation.slides[9]?.shapes ?? [];
    expect(slide9.filter((e) => e.content === PLACEHOLDER_IMAGE).map((e) => e.name)).toEqual([
      'Picture 10',
      'Picture 11',
    ]);
    const footers = result.slides[9]!.shapes.filter((s) =>
      ['dt', 'ftr', 'sldNum'].includes(s.placeholder?.type ?? ''),
    );
    expect(footers.length).toBeGreaterThan(0);
    for (const f of footers) expect(slide9.map((e) => e.name)).not.toContain(f.name);
    const slide8 = payload.presentation.slides[8]?.shapes ?? [];
    expect(slide8.find((e) => e.name === 'Picture Placeholder 4')?.content).toBe(PLACEHOLDER_IMAGE);

    const out = await generate({ payload, files: new Map([['layouts.pptx', template]]) });
    // The template's own text may overflow its boxes (the builder's titles do); nothing else is warned about.
    expect(out.warnings.filter((w) => !w.message.includes('overflows'))).toEqual([]);
    await expectValidPptx(out.bytes, template);
  });

  it('writes one entry for a name two shapes share (the payload reaches only the first)', () => {
    const result: InspectResult = {
      slideSize: null,
      layouts: [],
      slides: [
        {
          index: 0,
          id: 256,
          layout: null,
          hidden: false,
          notes: null,
          tags: [],
          shapes: [shape({ name: 'A', text: 'one' }), shape({ name: 'A', id: 3, text: 'two' })],
        },
      ],
    };
    expect(prefillPayload(result, 't.pptx').presentation.slides[0]?.shapes).toEqual([
      { name: 'A', content: 'one' },
    ]);
  });
});

describe('the shapes[] entry a click copies', () => {
  it('follows docs/payload*.md for each kind', () => {
    expect(shapeEntry(shape({ name: 'Body', text: 'First\nSecond' }))).toEqual({
      name: 'Body',
      content: 'First\nSecond',
    });
    expect(shapeEntry(shape({ name: 'Empty', text: '' }))).toEqual({ name: 'Empty', content: 'Empty' });
    const chart = shapeEntry(
      shape({
        name: 'Chart 5',
        kind: 'chart',
        chart: { types: ['line'], series: ['North', 'South'], categories: 3, workbook: 'embedded' },
      }),
    );
    expect(chart).toEqual({
      name: 'Chart 5',
      content: {
        categories: ['Category 1', 'Category 2', 'Category 3'],
        series: [
          { name: 'North', values: [10, 15, 20] },
          { name: 'South', values: [20, 25, 30] },
        ],
      },
    });
    expect(shapeEntry(shape({ name: 'Logo', kind: 'picture' }))).toEqual({
      name: 'Logo',
      content: PLACEHOLDER_IMAGE,
      fit: 'contain',
    });
    const group = shape({ name: 'Group 6', kind: 'group' });
    expect(isFillable(group)).toBe(false);
    expect(shapeEntry(group)).toEqual({ name: 'Group 6', is_hidden: false });
  });

  it('keeps a hostile name as data: the entry is JSON with the name verbatim', () => {
    const name = '<img src=x onerror=alert(1)>';
    const entry = JSON.stringify(shapeEntry(shape({ name, text: 'x' })));
    expect(JSON.parse(entry)).toEqual({ name, content: 'x' });
  });
});

describe('finding an error path in the editor', () => {
  const text = JSON.stringify(
    {
      presentation: {
        template: 't.pptx',
        slides: [{ slide_index: 0 }, { slide_index: 1, shapes: [{ name: 'A', content: [['x']] }] }],
      },
    },
    null,
    2,
  );

  it('takes the first path from shape A details', () => {
    expect(
      firstJsonPath(
        '2 problems: (1) presentation.slides[1].shapes[0].content: expected a string; (2) presentation: x',
      ),
    ).toBe('presentation.slides[1].shapes[0].content');
    expect(firstJsonPath('no path here')).toBeNull();
  });

  it('gives the range of the value at the path', () => {
    const range = locateJsonPath(text, 'presentation.slides[1].shapes[0].content');
    expect(range).not.toBeNull();
    expect(JSON.parse(text.slice(range!.start, range!.end))).toEqual([['x']]);
    const { line } = lineAndColumn(text, range!.start);
    expect(text.split('\n')[line - 1]).toContain('"content"');
  });

  it('falls back to the deepest part that exists, and matches without the presentation wrapper', () => {
    const missing = locateJsonPath(text, 'presentation.slides[0].shapes[2]');
    expect(JSON.parse(text.slice(missing!.start, missing!.end))).toEqual({ slide_index: 0 });
    const bare = JSON.stringify({ template: 't.pptx', slides: [{ slide_index: 7 }] });
    const found = locateJsonPath(bare, 'presentation.slides[0].slide_index');
    expect(bare.slice(found!.start, found!.end)).toBe('7');
  });

  it('gives nothing for text that is not JSON, or keys with escapes', () => {
    expect(locateJsonPath('{"presentation": ', 'presentation')).toBeNull();
    const escaped = '{"a\\"b": {"c": 1}}';
    const r = locateJsonPath(escaped, 'presentation.x');
    expect(r).toBeNull();
  });
});

describe('drawing a slide', () => {
  it('draws boxes at their EMU positions in a viewBox of the slide size, and lists shapes without one', () => {
    const size = slideSize({ slideSize: { cx: 9_144_000, cy: 6_858_000 } });
    const plan = planSlide(
      [
        shape({
          name: 'Title 1',
          text: 'Quarterly figures',
          box: { x: 457_200, y: 274_638, cx: 8_229_600, cy: 1_143_000 },
        }),
        shape({ name: 'Inherited', box: null }),
      ],
      size,
    );
    // In points: 12,700 EMU each.
    expect(plan.width).toBe(720);
    expect(plan.height).toBe(540);
    expect(plan.placed).toHaveLength(1);
    expect(plan.placed[0]).toMatchObject({ x: 36, y: 274_638 / 12_700, width: 648, height: 90 });
    expect(plan.placed[0]?.lines).toEqual(['Title 1 · text', 'Quarterly figures']);
    expect(plan.unplaced.map((s) => s.name)).toEqual(['Inherited']);
  });

  it('cuts labels to the box width and keeps the default 16:9 size when the template names none', () => {
    const size = slideSize({ slideSize: null });
    expect(size).toEqual({ cx: 12_192_000, cy: 6_858_000 });
    const narrow = planSlide(
      [shape({ name: 'A very long shape name indeed', box: { x: 0, y: 0, cx: 900_000, cy: 200_000 } })],
      size,
    );
    const line = narrow.placed[0]!.lines[0]!;
    expect(line.endsWith('…')).toBe(true);
    expect(line.length * narrow.placed[0]!.fontSize * 0.55).toBeLessThanOrEqual(
      900_000 + narrow.placed[0]!.fontSize,
    );
    expect(narrow.placed[0]!.lines).toHaveLength(1);
  });
});

describe('the usage chart', () => {
  it('scales bars to the busiest day, left to right by date, inside the chart', () => {
    const { bars, max } = chartBars([
      { date: '2026-11-01', slides: 0 },
      { date: '2026-11-02', slides: 8 },
      { date: '2026-11-03', slides: 2 },
    ]);
    expect(max).toBe(8);
    expect(bars.map((b) => b.height)).toEqual([0, expect.any(Number), expect.any(Number)]);
    expect(bars[1]!.height / bars[2]!.height).toBeCloseTo(4);
    expect(bars[0]!.x).toBeLessThan(bars[1]!.x);
    for (const bar of bars) {
      expect(bar.y + bar.height).toBeCloseTo(CHART.height - CHART.bottom);
      expect(bar.x + bar.width).toBeLessThanOrEqual(CHART.width);
    }
  });

  it('keeps a bar narrow when the period has had one day so far', () => {
    const { bars } = chartBars([{ date: '2026-11-26', slides: 20 }]);
    expect(bars[0]!.width).toBeLessThan((CHART.width - CHART.left) / 5);
  });
});
