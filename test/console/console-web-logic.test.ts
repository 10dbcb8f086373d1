/**
 * The console's browser logic that needs no browser: the playground's pre-filled payload (checked by generating
 * from it with the engine), the `shapes[]` entry a click copies, where an error's JSON path sits in the editor,
 * where a shape's box is drawn, and the per-day bars of the usage chart.
 */
import { describe, expect, it } from 'vitest';
import { generate, inspect, SHAPE_KIND_NAMES } from '../../src/engine/index.js';
import { firstJsonPath, lineAndColumn, locateJsonPath } from '../../src/console/browser/json-path-locator.js';
import type { InspectResult, InspectedShape, ShapeKind } from '../../src/console/browser/inspect-types.js';
import { prefillPayload } from '../../src/console/browser/payload-prefill.js';
import { contentEntry, isFillable, shapeEntry } from '../../src/console/browser/shape-entry.js';
import { LABEL_PIXELS, planSlide, slideSize } from '../../src/console/browser/slide-geometry.js';
import { CHART, chartBars } from '../../src/console/browser/usage-bars.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../support/decks/layouts-template.js';
import { REPORT_TABLE_TEXT, REPORT_TEMPLATE } from '../support/decks/report-template.js';

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
  it('has every slide once, gives back every table cell, and generates a valid deck as it stands', async () => {
    const result = inspect(REPORT_TEMPLATE) as unknown as InspectResult;
    const payload = prefillPayload(result, 'report.pptx');
    expect(payload.presentation.template).toBe('report.pptx');
    // The template's tags, each written back as it stands, there to be given values.
    expect(payload.presentation.tags).toEqual([{ key: 'contact', value: '{{contact}}' }]);
    expect(payload.presentation.slides.map((s) => s.slide_index)).toEqual(result.slides.map((s) => s.index));
    const first = payload.presentation.slides[0]?.shapes ?? [];
    expect(first).toEqual([
      { name: 'Title 1', content: 'Quarterly figures' },
      { name: 'Table 1', content: REPORT_TABLE_TEXT },
    ]);

    const out = await generate({ payload: payload, files: new Map([['report.pptx', REPORT_TEMPLATE]]) });
    expect(out.slideCount).toBe(result.slides.length);
    expect(out.warnings).toEqual([]);
    await expectValidPptx(out.bytes, REPORT_TEMPLATE);
  });

  it('leaves pictures, picture placeholders, date, footer and slide number without an entry', async () => {
    const template = layoutsTemplate();
    const result = inspect(template) as unknown as InspectResult;
    const payload = prefillPayload(result, 'layouts.pptx');
    for (const [index, slide] of result.slides.entries()) {
      const names = (payload.presentation.slides[index]?.shapes ?? []).map((e) => e.name);
      const untouched = slide.shapes.filter(
        (s) => s.kind === 'picture' || ['pic', 'dt', 'ftr', 'sldNum'].includes(s.placeholder?.type ?? ''),
      );
      for (const s of untouched) expect(names, `slide ${index}`).not.toContain(s.name);
    }
    const slide9 = result.slides[9]!.shapes.map((s) => s.name);
    expect(slide9).toEqual(expect.arrayContaining(['Picture 10', 'Picture 11']));

    const out = await generate({ payload, files: new Map([['layouts.pptx', template]]) });
    // The builder's titles overflow their boxes by the fit estimate; given back unchanged, they are not warned about.
    expect(out.warnings).toEqual([]);
    await expectValidPptx(out.bytes, template);
  });

  it('names by id the shapes that share a name (a name reaches only the first), so each gets its own back', () => {
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
          shapes: [
            shape({ name: 'A', text: 'one' }),
            shape({ name: 'A', id: 3, text: 'two' }),
            shape({ name: 'B', id: 4, text: 'three' }),
          ],
        },
      ],
    };
    expect(prefillPayload(result, 't.pptx').presentation.slides[0]?.shapes).toEqual([
      { shapeId: 2, content: 'one' },
      { shapeId: 3, content: 'two' },
      { name: 'B', content: 'three' },
    ]);
  });
});

describe('the inspect result the console reads', () => {
  it('knows every kind of shape the engine tells apart (its own copy, since the browser sees JSON)', () => {
    const consoleKinds: Record<ShapeKind, true> = {
      text: true,
      picture: true,
      table: true,
      chart: true,
      smartart: true,
      group: true,
      media: true,
      ole: true,
      connector: true,
      other: true,
    };
    expect(Object.keys(consoleKinds).sort()).toEqual([...SHAPE_KIND_NAMES].sort());
  });
});

describe('the shapes[] entry a click copies', () => {
  const run = (text: string, text_properties = {}) => ({ text, text_properties });

  it('gives a text shape back as a string when each paragraph has one formatting, empty ones empty', () => {
    const paragraphs = [
      { runs: [run('First', { font_bold: true })] },
      { runs: [] },
      { runs: [run('Third\vline', { font_size: 12 })] },
    ];
    expect(shapeEntry(shape({ name: 'Body', text: 'x', paragraphs }))).toEqual({
      name: 'Body',
      content: 'First\n\nThird\vline',
    });
    expect(shapeEntry(shape({ name: 'Text Box 3', paragraphs: [{ runs: [] }] }))).toEqual({
      name: 'Text Box 3',
      content: '',
    });
  });

  it('gives runs where formatting changes inside a paragraph, each with what differs from its first run', () => {
    const paragraphs = [
      { runs: [run('Title')] },
      {
        runs: [
          run('Revenue ', { font_bold: true, font_size: 14 }),
          run('up 12%', { font_size: 14, font_color: '#2E7D32' }),
          run(' overall', { font_bold: true, font_size: 14, font_italic: true }),
        ],
      },
      { runs: [] },
    ];
    expect(shapeEntry(shape({ name: 'Body', paragraphs }))).toEqual({
      name: 'Body',
      content: [
        { text_run: 'Title' },
        { text_run: 'Revenue ', text_properties: { new_line: true } },
        { text_run: 'up 12%', text_properties: { font_color: '#2E7D32', font_bold: false } },
        { text_run: ' overall', text_properties: { font_italic: true } },
        { text_run: '', text_properties: { new_line: true } },
      ],
    });
  });

  it('gives a chart its cached data and a table every cell; a picture keeps its image', () => {
    const data = { categories: ['Q1', 2026], series: [{ name: 'North', values: [1.5, null] }] };
    const chart = shape({
      name: 'Chart 5',
      kind: 'chart',
      chart: { types: ['line'], series: ['North'], categories: 2, workbook: 'embedded', data },
    });
    expect(shapeEntry(chart)).toEqual({ name: 'Chart 5', content: data });
    const cells = [
      ['a', ''],
      ['', 'd'],
    ];
    const table = shape({
      name: 'Table 1',
      kind: 'table',
      table: { rows: 2, columns: 2, headerRow: true, firstRow: ['a', ''], cells },
    });
    expect(shapeEntry(table)).toEqual({ name: 'Table 1', content: cells });
    // A sunburst or other chartex chart has no cached data the console reads: the entry leaves it alone.
    const sunburst = shape({
      name: 'Sunburst',
      kind: 'chart',
      chart: { types: ['sunburst'], series: ['S'], categories: 4, workbook: 'embedded' },
    });
    expect(shapeEntry(sunburst)).toEqual({ name: 'Sunburst', is_hidden: false });
    expect(contentEntry(sunburst)).toBeNull();
    const logo = shape({ name: 'Logo', kind: 'picture' });
    expect(isFillable(logo)).toBe(true);
    expect(shapeEntry(logo)).toEqual({ name: 'Logo', is_hidden: false });
    expect(contentEntry(logo)).toBeNull();
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
  it('sizes labels to read at 12 CSS pixels at the width the drawing is shown, however large the slide', () => {
    const box = { x: 0, y: 0, cx: 4_000_000, cy: 2_000_000 };
    for (const size of [
      { cx: 12_192_000, cy: 6_858_000 },
      { cx: 9_144_000, cy: 6_858_000 },
      { cx: 51_206_400, cy: 28_803_600 },
    ]) {
      for (const drawnWidth of [320, 480, 900]) {
        const plan = planSlide([shape({ name: 'Title 1', box })], size, drawnWidth);
        const pixels = (plan.placed[0]!.fontSize * drawnWidth) / plan.width;
        expect(pixels, `${size.cx} EMU wide, drawn ${drawnWidth} px`).toBeGreaterThanOrEqual(LABEL_PIXELS);
      }
    }
    expect(LABEL_PIXELS).toBe(12);
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
