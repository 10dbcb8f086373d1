import { describe, expect, it } from 'vitest';
import { engineErrorOf } from '../../../test/support/checks/engine-error.js';
import type { Warning } from '../errors.js';
import type { ShapeRequest } from './model.js';
import { parsePayload } from './parse-payload.js';

function parseShapes(...shapes: unknown[]): { shapes: ShapeRequest[]; warnings: Warning[] } {
  const { request, warnings } = parsePayload({
    presentation: { template: 't.pptx', slides: [{ slide_index: 0, shapes }] },
  });
  return { shapes: request.slides[0]?.shapes ?? [], warnings };
}

function shape(entry: unknown): ShapeRequest {
  return parseShapes(entry).shapes[0] as ShapeRequest;
}

function refusal(entry: unknown): { path: string | null; message: string } {
  const e = engineErrorOf(() => parseShapes(entry));
  expect(e.code).toBe('INVALID_PAYLOAD');
  return { path: e.path, message: e.message };
}

const AT = 'presentation.slides[0].shapes[0]';

describe('shape targets and common fields', () => {
  it('targets by name, or by shapeId as a number or a numeric string', () => {
    expect(shape({ name: 'Title 1' }).target).toEqual({ by: 'name', name: 'Title 1' });
    expect(shape({ shapeId: 7 }).target).toEqual({ by: 'id', id: 7 });
    expect(shape({ shapeId: '12' }).target).toEqual({ by: 'id', id: 12 });
  });

  it('normalises the common fields', () => {
    expect(shape({ name: 'A', is_hidden: true, remove: true })).toEqual({
      path: AT,
      target: { by: 'name', name: 'A' },
      hidden: true,
      remove: true,
      settings: null,
      content: null,
      contentField: 'content',
    });
    expect(shape({ name: 'A' })).toMatchObject({ hidden: null, remove: false });
  });

  it('refuses a missing or doubled target and bad ids', () => {
    expect(refusal({ content: 'x' })).toEqual({
      path: AT,
      message: `${AT}: expected name or shapeId, got none of them`,
    });
    expect(refusal({ name: 'A', shapeId: 2 }).message).toBe(
      `${AT}: expected only one of name, shapeId, got name and shapeId`,
    );
    expect(refusal({ shapeId: 'abc' })).toEqual({
      path: `${AT}.shapeId`,
      message: `${AT}.shapeId: expected a shape id (an integer >= 0 or a numeric string), got "abc"`,
    });
    expect(refusal({ shapeId: -1 }).path).toBe(`${AT}.shapeId`);
    expect(refusal({ name: '' }).message).toBe(`${AT}.name: expected a non-empty string, got ""`);
    expect(refusal({ name: 'A', is_hidden: 'yes' }).message).toBe(
      `${AT}.is_hidden: expected true or false, got "yes"`,
    );
    expect(refusal({ name: 'A', remove: 1 }).path).toBe(`${AT}.remove`);
  });
});

describe('settings', () => {
  it('converts every unit to integer EMU (pt default, points, cm, mm, in, px at 96 dpi, emu)', () => {
    const emu = (unit: string | undefined, v: number): unknown =>
      shape({ name: 'A', settings: { left: v, top: v, width: v, height: v, ...(unit ? { unit } : {}) } })
        .settings;
    expect(emu(undefined, 10)).toEqual({ left: 127000, top: 127000, width: 127000, height: 127000 });
    expect(emu('pt', 1.5)).toMatchObject({ left: 19050 });
    expect(emu('points', 2)).toMatchObject({ left: 25400 });
    expect(emu('cm', 2.54)).toMatchObject({ left: 914400 });
    expect(emu('mm', 10)).toMatchObject({ left: 360000 });
    expect(emu('in', 1)).toMatchObject({ left: 914400 });
    expect(emu('px', 96)).toMatchObject({ left: 914400 });
    expect(emu('emu', 12345)).toMatchObject({ left: 12345 });
    expect(emu('CM', 1)).toMatchObject({ left: 360000 });
    expect(emu('cm', 0.0001)).toMatchObject({ left: 36 }); // rounded, never fractional
  });

  it('accepts settings as a one-element array, and fill_color', () => {
    expect(shape({ name: 'A', settings: [{ left: -1, fill_color: '#ff0000' }] }).settings).toEqual({
      left: -12700,
      fillColor: 'FF0000',
    });
    expect(shape({ name: 'A', settings: [] }).settings).toBeNull();
  });

  it('refuses bad settings, naming the path', () => {
    expect(refusal({ name: 'A', settings: [{}, {}] }).message).toBe(
      `${AT}.settings: expected a settings object (or an array holding one), got an array of 2 items`,
    );
    expect(refusal({ name: 'A', settings: { unit: 'furlong' } }).message).toBe(
      `${AT}.settings.unit: expected one of "pt", "points", "cm", "mm", "in", "px", "emu", got "furlong"`,
    );
    expect(refusal({ name: 'A', settings: [{ width: -5 }] }).message).toBe(
      `${AT}.settings[0].width: expected a number >= 0, got -5`,
    );
    expect(refusal({ name: 'A', settings: { left: '10' } }).path).toBe(`${AT}.settings.left`);
    expect(refusal({ name: 'A', settings: { left: 1e12, unit: 'in' } }).path).toBe(`${AT}.settings.left`);
    expect(refusal({ name: 'A', settings: { fill_color: 'blurple' } }).message).toBe(
      `${AT}.settings.fill_color: expected a colour (#RRGGBB, RRGGBB, RGB(r,g,b), r,g,b or a CSS colour name), got "blurple"`,
    );
  });

  it('maps the hosted API chart settings and the older shape-level aliases', () => {
    const s = shape({
      name: 'Chart 1',
      title: 'old title',
      categoryTitle: 'Month',
      valueTitle: 'EUR',
      settings: {
        title: 'Sales',
        chartFont: 'Arial',
        chartFontSize: 12,
        fill_color: 'white',
        chartShowLegend: true,
        chartLegendPosition: 'TopRight',
        chartLegendColor: 'RGB(0,0,255)',
        isChartLegendBold: true,
        isChartLabelValueVisible: false,
        chartDataLabelPosition: 'OutsideEnd',
        chartDataLabelFontSize: 9,
        chartDataLabelFont: 'Calibri',
        number_format: '#,##0.00',
        value_axis_title: 'Euro',
      },
    }).settings;
    expect(s).toEqual({
      fillColor: 'FFFFFF',
      chart: {
        title: 'Sales',
        font: 'Arial',
        fontSizePt: 12,
        showLegend: true,
        legendPosition: 'tr',
        legendFontColor: '0000FF',
        legendBold: true,
        showValueLabels: false,
        dataLabelPosition: 'outEnd',
        dataLabelFontSizePt: 9,
        dataLabelFont: 'Calibri',
        numberFormat: '#,##0.00',
        categoryAxisTitle: 'Month',
        valueAxisTitle: 'Euro',
      },
    });
    expect(
      shape({ name: 'C', settings: { chartLegendFontColor: 'red' } }).settings?.chart?.legendFontColor,
    ).toBe('FF0000');
    expect(shape({ name: 'C', title: 'T' }).settings).toEqual({ chart: { title: 'T' } });
  });

  it('maps every legend position and refuses unknown ones', () => {
    const positions = {
      Left: 'l',
      Right: 'r',
      Bottom: 'b',
      Top: 't',
      TopRight: 'tr',
      None: 'none',
      bottom: 'b',
    };
    for (const [name, value] of Object.entries(positions)) {
      expect(
        shape({ name: 'C', settings: { chartLegendPosition: name } }).settings?.chart?.legendPosition,
      ).toBe(value);
    }
    expect(refusal({ name: 'C', settings: { chartLegendPosition: 'Middle' } }).path).toBe(
      `${AT}.settings.chartLegendPosition`,
    );
    expect(refusal({ name: 'C', settings: { chartFontSize: 0 } }).message).toBe(
      `${AT}.settings.chartFontSize: expected a number from 1 to 4000, got 0`,
    );
  });
});

describe('content and its aliases', () => {
  it('keeps a content string ambiguous until the shape kind is known', () => {
    expect(shape({ name: 'A', content: 'Hello\nWorld' }).content).toEqual({
      kind: 'string',
      value: 'Hello\nWorld',
    });
  });

  it('takes `text` as text (string or runs)', () => {
    expect(shape({ name: 'A', text: 'a\nb' }).content).toEqual({
      kind: 'text',
      fromRuns: false,
      paragraphs: [
        { props: {}, runs: [{ text: 'a', props: {} }] },
        { props: {}, runs: [{ text: 'b', props: {} }] },
      ],
    });
    expect(shape({ name: 'A', text: [{ text_run: 'x' }] }).content).toMatchObject({
      kind: 'text',
      fromRuns: true,
    });
    expect(shape({ name: 'A', content: [{ text_run: 'x' }] }).content).toMatchObject({
      kind: 'text',
      fromRuns: true,
    });
    expect(shape({ name: 'A', content: { text_run: 'x' } }).content).toMatchObject({
      kind: 'text',
      fromRuns: true,
    });
  });

  it('takes `filename` as a picture, with fit (default contain)', () => {
    expect(shape({ name: 'P', filename: 'logo.png' }).contentField).toBe('filename');
    expect(shape({ name: 'P', filename: 'logo.png' }).content).toEqual({
      kind: 'picture',
      source: 'logo.png',
      fit: 'contain',
    });
    expect(shape({ name: 'P', filename: 'https://x.test/a.jpg', fit: 'cover' }).content).toEqual({
      kind: 'picture',
      source: 'https://x.test/a.jpg',
      fit: 'cover',
    });
    expect(shape({ name: 'P', content: 'data:image/png;base64,AAAA', fit: 'stretch' }).content).toEqual({
      kind: 'picture',
      source: 'data:image/png;base64,AAAA',
      fit: 'stretch',
    });
  });

  it('takes alt_text as the shape description', () => {
    expect(shape({ name: 'P', filename: 'logo.png', alt_text: 'Acme logo' }).altText).toBe('Acme logo');
    expect(shape({ name: 'P', filename: 'logo.png' })).not.toHaveProperty('altText');
  });

  it('warns about fit on content that is not a picture', () => {
    const { warnings } = parseShapes({ name: 'A', content: [{ text_run: 'x' }], fit: 'cover' });
    expect(warnings).toEqual([{ path: `${AT}.fit`, message: 'fit applies to pictures only; ignored' }]);
  });

  it('refuses bad picture sources and fit values', () => {
    expect(refusal({ name: 'P', filename: 'ftp://x.test/a.png' }).message).toBe(
      `${AT}.filename: expected an uploaded file name, an http(s) URL or a data: URI, got "ftp://x.test/a.png"`,
    );
    expect(refusal({ name: 'P', filename: 'data:image/png;base64' }).path).toBe(`${AT}.filename`);
    expect(refusal({ name: 'P', content: 'file:///etc/passwd', fit: 'cover' }).path).toBe(`${AT}.content`);
    expect(refusal({ name: 'P', filename: 'a.png', fit: 'zoom' }).message).toBe(
      `${AT}.fit: expected one of "contain", "cover", "stretch", got "zoom"`,
    );
  });

  it('takes `data_cells` and an array of rows as a table, `data` as a chart matrix', () => {
    expect(shape({ name: 'T', data_cells: [['a']] }).content).toMatchObject({ kind: 'table' });
    expect(shape({ name: 'T', content: [['a']] }).content).toMatchObject({ kind: 'table' });
    expect(shape({ name: 'C', data: [['s'], ['c'], [1]] }).content).toMatchObject({ kind: 'chart' });
  });

  it('refuses two content keys, and content of no known form', () => {
    expect(refusal({ name: 'A', content: 'x', text: 'y' }).message).toBe(
      `${AT}: expected only one of content, text, filename, data_cells, data, got content and text`,
    );
    expect(refusal({ name: 'A', content: 5 })).toEqual({
      path: `${AT}.content`,
      message:
        `${AT}.content: expected a string, an array of runs [{text_run, text_properties}], a non-empty array of ` +
        'table rows (arrays of cells), an array of strings (SmartArt: one per node), a chart object ' +
        '{categories, series} or a typed value {number, format} or ' +
        '{date, format}, got 5',
    });
    expect(refusal({ name: 'A', content: [5, 'b'] }).message).toBe(
      `${AT}.content[0]: expected a run object {text_run, text_properties}, a table row (an array of cells) or a string, got 5`,
    );
    expect(shape({ name: 'A', content: ['a', { number: 2, format: '0.0' }] }).content).toMatchObject({
      kind: 'list',
      items: [{ paragraphs: [{ runs: [{ text: 'a' }] }] }, { paragraphs: [{ runs: [{ text: '2.0' }] }] }],
    });
    expect(refusal({ name: 'A', text: 5 }).message).toBe(
      `${AT}.text: expected a string, an array of runs [{text_run, text_properties}] or a typed value {number|date, format}, got 5`,
    );
    expect(refusal({ name: 'A', data_cells: [] }).path).toBe(`${AT}.data_cells`);
  });

  it('attaches shape-level overlays to chart content, and warns when there is none', () => {
    const chart = shape({
      name: 'C',
      data: [['s1', 's2'], ['c1'], [1, 2]],
      overlays: [['+5%'], ['-2%']],
    }).content;
    expect(chart).toMatchObject({ kind: 'chart', overlays: [['+5%'], ['-2%']] });
    const { warnings } = parseShapes({ name: 'C', overlays: [['x']] });
    expect(warnings.map((w) => w.path)).toEqual([`${AT}.overlays`]);
  });
});

describe('remove_if_empty', () => {
  it.each([
    ['absent content', {}],
    ['null', { content: null }],
    ['""', { content: '' }],
    [
      'runs without text',
      { content: [{ text_run: '' }, { text_run: '', text_properties: { new_line: true } }] },
    ],
    ['a table without text', { content: [['', null], [{ text: '' }]] }],
    [
      'a chart without values',
      { content: { categories: ['a', 'b'], series: [{ name: 's', values: [null, null] }] } },
    ],
  ])('removes the shape for %s', (_what, entry) => {
    const parsed = shape({ name: 'Optional', remove_if_empty: true, ...entry });
    expect(parsed.remove).toBe(true);
    expect(parsed.content).toBeNull();
  });

  it.each([
    ['text', { content: 'x' }],
    ['a zero', { content: [['', 0]] }],
    ['a chart with a point', { content: { categories: ['a'], series: [{ name: 's', values: [0] }] } }],
  ])('fills the shape as usual when it has %s', (_what, entry) => {
    const parsed = shape({ name: 'Optional', remove_if_empty: true, ...entry });
    expect(parsed.remove).toBe(false);
    expect(parsed.content).not.toBeNull();
  });

  it('without it, an empty string empties the shape and keeps it', () => {
    expect(shape({ name: 'Optional', content: '' })).toMatchObject({
      remove: false,
      content: { kind: 'string', value: '' },
    });
  });
});
