/**
 * Chart content (docs/payload-charts.md): `{categories, series}` (scatter series with `x`/`y`, bubble adds
 * `size`; `null` is a gap), or the hosted API's `data` matrix: `data[0]` series names, `data[1]` category names,
 * then one row per category with one value per series. Both become model.ts `ChartContent`.
 */
import type { ChartContent, ChartSeries } from './model.js';
import { object, required } from './object-builder.js';
import {
  arrayOf,
  byJsonType,
  custom,
  fail,
  named,
  number,
  refuse,
  string,
  transform,
  type Spec,
} from './schema-builders.js';
import { type ParseContext, type PathKey } from './parse-context.js';
import { numberAsText } from './text-content.js';
import { typedValueSpec, type TypedValue } from './typed-value.js';

const NUMERIC = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;
const VALUE_EXPECTED = 'a number, a numeric string, a typed value {number|date, format} or null';

/** A point: a number, a gap, or a typed value (its number goes into the chart, its format onto the series). */
type PointInput = number | null | TypedValue;

/** Data often comes from spreadsheets or CSV as text, so "12.5" is taken as 12.5. */
const chartValueSpec: Spec<PointInput> = byJsonType<PointInput>(VALUE_EXPECTED, {
  number: number(),
  object: typedValueSpec,
  null: custom('null', { type: 'null' }, () => null),
  string: custom('a numeric string', { type: 'string', pattern: NUMERIC.source }, (value, ctx) => {
    // `1e400` matches the pattern but is no number a chart can hold.
    if (typeof value !== 'string' || !NUMERIC.test(value) || !Number.isFinite(Number(value)))
      fail(ctx, VALUE_EXPECTED, value);
    return Number(value);
  }),
});

const valuesSpec = arrayOf(chartValueSpec, { expected: 'an array of numbers (null for a gap)' });

function numbersOf(points: readonly PointInput[]): (number | null)[] {
  return points.map((p) => (p === null || typeof p === 'number' ? p : p.value));
}

/** The format of a series' typed values: the first one's (a series has one format code in its cache). */
function formatOf(points: readonly PointInput[] | undefined): string | undefined {
  for (const p of points ?? []) if (p !== null && typeof p === 'object') return p.format;
  return undefined;
}

/** Category and series names: text, numbers (years, quarters) written as text, or typed values. */
const labelSpec: Spec<string> = byJsonType('a string, a number or a typed value {number|date, format}', {
  string: string(),
  number: numberAsText,
  object: transform(typedValueSpec, (typed) => typed.text),
});

const labelsSpec = arrayOf(labelSpec, { expected: 'an array of names (strings or numbers)' });

const seriesSpec: Spec<ChartSeries> = named(
  'ChartSeries',
  object(
    'a series object {name, values} (scatter: {name, x, y}; bubble: {name, x, y, size})',
    { name: required(labelSpec), values: valuesSpec, x: valuesSpec, y: valuesSpec, size: valuesSpec },
    (f, ctx) => {
      const series: ChartSeries = { name: f.name };
      const formatCode = formatOf(f.values ?? f.y);
      if (formatCode !== undefined) series.formatCode = formatCode;
      if (f.values !== undefined) series.values = numbersOf(f.values);
      if (f.x !== undefined || f.y !== undefined) {
        if (f.x === undefined || f.y === undefined)
          refuse(ctx, 'expected both x and y, got only one of them');
        if (f.y.length !== f.x.length) {
          refuse(ctx, `expected ${f.x.length} values (as many as x), got ${f.y.length}`, 'y');
        }
        series.x = numbersOf(f.x);
        series.y = numbersOf(f.y);
      }
      if (f.size !== undefined) {
        if (f.x === undefined) refuse(ctx, 'expected x and y with size (bubble chart)', 'size');
        if (f.size.length !== f.x.length) {
          refuse(ctx, `expected ${f.x.length} values (as many as x), got ${f.size.length}`, 'size');
        }
        series.size = numbersOf(f.size);
      }
      return series;
    },
    { oneRequired: [['values', 'x']], exclusive: [['values', 'x']] },
  ),
);

const MATRIX_EXPECTED =
  'a data matrix [[series names], [category names], [one value per series] for each category]';

function parseAt<T>(spec: Spec<T>, array: unknown[], index: number, ctx: ParseContext): T {
  ctx.enter(index);
  const parsed = spec.parse(array[index], ctx);
  ctx.leave();
  return parsed;
}

/** The hosted API's `data` form. */
export const chartMatrixSpec: Spec<ChartContent> = {
  expected: MATRIX_EXPECTED,
  parse(value, ctx) {
    if (!Array.isArray(value) || value.length < 2) fail(ctx, MATRIX_EXPECTED, value);
    const names = parseAt(labelsSpec, value, 0, ctx);
    const categories = parseAt(labelsSpec, value, 1, ctx);
    if (value.length - 2 !== categories.length) {
      refuse(
        ctx,
        `expected ${categories.length} value rows after the two name rows (one per category), got ${value.length - 2}`,
      );
    }
    const series: ChartSeries[] = names.map((name) => ({ name, values: [] as (number | null)[] }));
    for (let r = 2; r < value.length; r++) {
      const row = parseAt(valuesSpec, value, r, ctx);
      if (row.length !== names.length) {
        refuse(ctx, `expected ${names.length} values (one per series), got ${row.length}`, r);
      }
      for (let s = 0; s < row.length; s++) {
        const point = row[s] as PointInput;
        const one = series[s] as ChartSeries;
        one.values?.push(numbersOf([point])[0] as number | null);
        if (one.formatCode === undefined && point !== null && typeof point === 'object')
          one.formatCode = point.format;
      }
    }
    return { kind: 'chart', categories, series };
  },
  toJsonSchema(defs) {
    const labels = labelsSpec.toJsonSchema(defs);
    return {
      type: 'array',
      description: MATRIX_EXPECTED,
      minItems: 2,
      prefixItems: [labels, labels],
      items: valuesSpec.toJsonSchema(defs),
    };
  },
};

export const overlaysSpec = arrayOf(arrayOf(string(), { expected: 'an array of strings (one per point)' }), {
  expected: 'an array of arrays of strings (one array per series)',
});

/** Overlays may not name more series or points than the chart content has. */
export function attachOverlays(
  chart: ChartContent,
  overlays: string[][] | undefined,
  ctx: ParseContext,
  key: PathKey,
): ChartContent {
  if (overlays === undefined) return chart;
  if (overlays.length > chart.series.length) {
    refuse(
      ctx,
      `expected at most ${chart.series.length} arrays (one per series), got ${overlays.length}`,
      key,
    );
  }
  overlays.forEach((labels, i) => {
    const s = chart.series[i] as ChartSeries;
    const points = (s.values ?? s.x ?? []).length;
    if (labels.length > points)
      refuse(ctx, `expected at most ${points} strings (one per point), got ${labels.length}`, key, i);
  });
  return { ...chart, overlays };
}

export const CHART_EXPECTED = 'a chart object {categories, series}';

export const chartObjectSpec: Spec<ChartContent> = named(
  'ChartContent',
  object(
    CHART_EXPECTED,
    {
      categories: labelsSpec,
      series: arrayOf(seriesSpec, { minItems: 1, expected: 'a non-empty array of series objects' }),
      data: chartMatrixSpec,
      overlays: overlaysSpec,
    },
    (f, ctx) => {
      const chart: ChartContent = f.data ?? {
        kind: 'chart',
        categories: f.categories ?? [],
        series: f.series ?? [],
      };
      if (chart.categories.length > 0) {
        chart.series.forEach((s, i) => {
          if (s.values !== undefined && s.values.length !== chart.categories.length) {
            refuse(
              ctx,
              `expected ${chart.categories.length} values (one per category), got ${s.values.length}`,
              'series',
              i,
              'values',
            );
          }
        });
      }
      return attachOverlays(chart, f.overlays, ctx, 'overlays');
    },
    {
      oneRequired: [['series', 'data']],
      exclusive: [
        ['series', 'data'],
        ['categories', 'data'],
      ],
    },
  ),
);
