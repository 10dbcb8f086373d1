/**
 * The Office 2016 chart part (`cx:chartSpace`: waterfall, funnel, treemap, sunburst, histogram, pareto, box &
 * whisker, region map; docs/powerpoint-rules.md "chartEx charts"). Its data sits apart from its series:
 * `cx:chartData/cx:data[@id]` holds a text dimension (categories: `cx:strDim`) and number dimensions
 * (`cx:numDim`: values, sizes, colour values), each with a formula (`cx:f`) and levels of points (`cx:lvl/cx:pt`,
 * the text of the point); a series names its data by `cx:dataId`. The same `content` form fills it, read as the
 * layout reads its points (chart-ex-layout.ts):
 * - categories, one value each (waterfall, funnel, treemap, sunburst, a histogram by category, pareto): the
 *   categories on one level (a hierarchy of the template becomes flat);
 * - observations (histogram): the values are sorted into bins, no categories are drawn;
 * - observations in groups (box & whisker): a category per value names its box; without categories one box;
 * - regions (region map): the map's regions stay (its map data is for them), only their values change.
 * The workbook is rewritten as for classic charts, typed values' format code in the cache and on the cells
 * (docs/payload.md "Numbers and dates"). The fallback picture old clients show stays as it was.
 */
import { EngineError } from '../../errors.js';
import type { ChartContent } from '../../payload/model.js';
import { child, textContent, type XmlElement } from '../../xml/index.js';
import { exLayout, type ExLayout } from './chart-ex-layout.js';
import { leafCategories, numDim, strDim, txData, writeExSeries } from './chart-ex-data.js';
import { exSeries, resizeExSeries, type ExSeries } from './chart-ex-series.js';
import type { ChartParts } from '../chart-parts.js';
import { openWorkbook, sheetPrefix, workbookSource, writeWorkbook } from '../chart-workbook.js';
import { planLayout, type LayoutPlan, type TemplateRefs } from '../data-layout.js';
import { parseFormula, type Area } from '../formula.js';
import { categoryLabels, seriesTargets } from '../series-targets.js';
import type { CellFormat } from '../workbook/cell-styles.js';

export interface ChartExFillInput {
  parts: ChartParts;
  partName: string;
  root: XmlElement;
  content: ChartContent;
  path: string;
  matrix: boolean;
  warn: (message: string) => void;
}

export function fillChartEx(input: ChartExFillInput): void {
  const { parts, partName, root, content, path, warn } = input;
  const chartData = child(root, 'cx:chartData');
  const region = seriesRegion(root);
  if (!chartData || !region)
    throw new EngineError('INVALID_TEMPLATE', 'the chart part has no data or plot area', partName);
  const template = exSeries(region, chartData);
  if (template.length === 0)
    throw new EngineError('INVALID_TEMPLATE', 'the chart has no series to fill', partName);
  const layout = exLayout(region);
  const points = pointsOf(layout, content, template, warn);
  if (!points) return;
  if (points.labels.length === 0)
    throw new EngineError('CONTENT_MISMATCH', 'a chart needs at least one category (or point)', path);
  let count = content.series.length;
  if (layout.single && count > 1) {
    warn(`${layout.label} draws one series; the first of the ${count} given was used`);
    count = 1;
  }

  const source = workbookSource(parts, partName, child(chartData, 'cx:externalData'));
  const workbook = openWorkbook(parts, source);
  const resolve = (f: string): Area[] | null => parseFormula(f) ?? workbook?.structuredReference(f) ?? null;
  const keepRegions = points.write === null;
  const refs = template.map((s) => exRefs(s, resolve, keepRegions));
  const layoutPossible = template.every((s) => [...formulas(s)].every((f) => resolve(f) !== null));
  const series = resizeExSeries(chartData, region, template, count);
  const slots = series.map(() => ({ kind: 'category' as const, label: layout.label }));
  const targets = seriesTargets(content, slots, points.labels, (k) =>
    input.matrix ? path : `${path}.series[${k}]`,
  );
  const hasCategories = series.some((s) => strDim(s.data));
  if (hasCategories === false && points.given && layout.points !== 'observations')
    warn(
      `the template's ${layout.name} chart has no categories (its points are numbered); the categories given were not used`,
    );

  const first = workbook?.sheetNames()[0];
  const plan: LayoutPlan | null = layoutPossible
    ? planLayout(
        refs,
        targets.map((t, k) => ({
          name: t.name,
          dims: t.dims,
          primary: 0,
          template: Math.min(k, template.length - 1),
          labels: null,
          formats: [typedFormat(content.series[k]?.formatCode)],
        })),
        hasCategories ? points.write : null,
        first === undefined ? null : sheetPrefix(first),
      )
    : null;
  series.forEach((s, k) =>
    writeExSeries(s, {
      name: targets[k]!.name,
      values: targets[k]!.dims[0] ?? [],
      categories: points.write,
      formulas: plan?.formulas[k] ?? null,
      formatCode: content.series[k]?.formatCode,
    }),
  );
  writeWorkbook(parts, source, workbook, plan, warn);
}

/** The workbook cells of a series of typed values show its format code, as its data cache does. */
function typedFormat(formatCode: string | undefined): CellFormat | null {
  return formatCode === undefined ? null : { code: formatCode, anyDate: false };
}

interface Points {
  /** One label per point: the length every series takes (shorter ones end in gaps). */
  labels: string[];
  /** What the category dimension gets; null keeps the template's (a region map's regions). */
  write: string[] | null;
  /** Whether the payload named categories. */
  given: boolean;
}

/** The chart's points as its layout reads them; null when the chart cannot take the content (warned). */
function pointsOf(
  layout: ExLayout,
  content: ChartContent,
  template: readonly ExSeries[],
  warn: (message: string) => void,
): Points | null {
  const given = content.categories.length > 0;
  const longest = Math.max(0, ...content.series.map((s) => s.values?.length ?? 0));
  switch (layout.points) {
    case 'regions': {
      const regions = leafCategories(template[0]!.data);
      const same = given
        ? regions.length === content.categories.length && regions.every((r, i) => r === content.categories[i])
        : content.series[0]?.values?.length === regions.length;
      if (same) return { labels: regions, write: null, given };
      warn(
        `a region map keeps the regions it was made with (${regions.join(', ')}; its map data is for them): give their values in that order, with or without these categories. The chart was not changed`,
      );
      return null;
    }
    case 'observations': {
      if (given)
        warn(
          `${layout.label} sorts its values into bins and draws no categories; the categories given were not used`,
        );
      const labels = Array.from({ length: longest }, (_, i) => String(i + 1));
      return { labels, write: labels, given };
    }
    case 'groups': {
      const labels = given ? content.categories : Array.from({ length: longest }, () => '');
      return { labels, write: labels, given };
    }
    case 'categories': {
      const labels = categoryLabels(content);
      return { labels, write: labels, given };
    }
  }
}

/** `cx:chart/cx:plotArea/cx:plotAreaRegion`, where the series are. */
export function seriesRegion(root: XmlElement): XmlElement | undefined {
  const chart = child(root, 'cx:chart');
  const plotArea = chart && child(chart, 'cx:plotArea');
  return plotArea && child(plotArea, 'cx:plotAreaRegion');
}

function* formulas(s: ExSeries): Generator<string> {
  for (const holder of [strDim(s.data), numDim(s.data), txData(s.el)]) {
    const f = holder && child(holder, 'cx:f');
    if (f) yield textContent(f);
  }
}

/** A series' workbook areas by role; a region map's regions are left where they are (`keepCategories`). */
function exRefs(s: ExSeries, resolve: (f: string) => Area[] | null, keepCategories: boolean): TemplateRefs {
  const areas = (holder: XmlElement | undefined): Area[] | null => {
    const f = holder && child(holder, 'cx:f');
    return f ? resolve(textContent(f)) : null;
  };
  return {
    name: areas(txData(s.el)),
    categories: keepCategories ? null : areas(strDim(s.data)),
    dims: [areas(numDim(s.data))],
    labels: null,
  };
}
