/**
 * Fills a classic chart part (`c:chartSpace`, ECMA-376 Part 1 §21.2) with new data: the series are resized
 * (series-resize.ts), their caches rewritten (series-caches.ts) with formulas that name where the data now sits
 * in the workbook (data-layout.ts), and the embedded workbook rewritten to match (chart-workbook.ts), so
 * PowerPoint shows the data before and after "Edit Data" (docs/powerpoint-rules.md
 * "Chart caches are what PowerPoint draws").
 */
import { linkValueAxisFormat } from './linked-axis-format.js';
import { EngineError } from '../../errors.js';
import type { ChartContent } from '../../payload/model.js';
import { child, childElements, descendants, type XmlElement } from '../../xml/index.js';
import { categoryValues, isDateFormat, type CategoryValues } from '../category-values.js';
import type { ChartParts } from '../chart-parts.js';
import { openWorkbook, sheetPrefix, workbookSource, writeWorkbook } from '../chart-workbook.js';
import { planLayout, type LayoutPlan, type TemplateRefs } from '../data-layout.js';
import { parseFormula, type Area } from '../formula.js';
import { plotGroupInfo, plotGroups, type SeriesKind } from './plot-groups.js';
import { fitPoints, labelRange, writeLabelRange } from './point-formatting.js';
import {
  dimensionForm,
  formulaOf,
  templateFormatCode,
  writeDimension,
  writeSeriesName,
} from '../series-caches.js';
import { chartSeries, resizeSeries, type ChartSeriesEntry } from './series-resize.js';
import { categoryLabels, seriesCount, seriesTargets, type SeriesTarget } from '../series-targets.js';
import type { CellFormat } from '../workbook/cell-styles.js';

const DIMENSIONS: Record<SeriesKind, readonly string[]> = {
  category: ['c:val'],
  scatter: ['c:xVal', 'c:yVal'],
  bubble: ['c:xVal', 'c:yVal', 'c:bubbleSize'],
};

export interface ClassicFillInput {
  parts: ChartParts;
  partName: string;
  root: XmlElement;
  content: ChartContent;
  /** Where errors about the content point (`…shapes[2].content` or `….data`). */
  path: string;
  /** Whether the content came as the `data` matrix (then a series has no path of its own). */
  matrix: boolean;
  /** Overrides the values' format code (settings `number_format`). */
  numberFormat: string | undefined;
  warn: (message: string) => void;
}

export function fillClassicChart(input: ClassicFillInput): void {
  const { parts, partName, root, content, path, warn } = input;
  const plotArea = plotAreaOf(root, partName);
  const template = chartSeries(plotArea);
  const groups = plotGroups(plotArea);
  const firstGroup = groups[0];
  if (!firstGroup) throw new EngineError('INVALID_TEMPLATE', 'the chart has no plot to fill', partName);
  const stock = groups.find((g) => g.name === 'c:stockChart');
  const count = seriesCount(
    content.series.length,
    {
      single: groups.every((g) => plotGroupInfo(g.name)?.maxSeries === 1),
      fixed: stock ? template.length : null,
      label: `chart "${partName.split('/').pop()}" (${plotGroupInfo((stock ?? firstGroup).name)?.label ?? 'a chart'})`,
    },
    path,
    warn,
  );
  const source = workbookSource(parts, partName, child(root, 'c:externalData'));
  const workbook = openWorkbook(parts, source);
  // A formula is a cell range, or a structured reference to an Excel table of the embedded workbook.
  const resolve = (f: string): Area[] | null => parseFormula(f) ?? workbook?.structuredReference(f) ?? null;
  // Read everything the layout needs from the template before any series changes.
  const refs = template.map((s) => templateRefs(s, resolve));
  const layoutPossible = template.every((s) => formulasResolve(s, resolve));
  const categoryKind = categoryTemplate(template, plotArea);
  const series = resizeSeries(plotArea, template, count);
  const slots = series.map((s) => ({ kind: s.info.kind, label: s.info.label }));
  const labels = categoryLabels(content);
  const seriesPath = (k: number): string => (input.matrix ? path : `${path}.series[${k}]`);
  const targets = seriesTargets(content, slots, labels, seriesPath);
  if (targets.some((t) => (t.dims[0]?.length ?? 0) === 0))
    throw new EngineError(
      'CONTENT_MISMATCH',
      'a chart needs at least one category (or point) in each series',
      path,
    );

  const date1904 =
    child(root, 'c:date1904')?.attrs.val === '1' || child(root, 'c:date1904')?.attrs.val === 'true';
  const categories = categoryValues(labels, categoryKind, date1904);
  if (categories.fellBack)
    warn(
      `the template's categories are ${categoryKind.kind === 'date' ? 'dates' : 'numbers'}, but not every category given is one (dates as YYYY-MM-DD); they were written as text`,
    );
  const hasCategories = series.some((s) => s.info.kind === 'category');

  const fallbackSheet = workbook?.sheetNames()[0];
  const plan = layoutPossible
    ? planLayout(
        refs,
        targets.map((t, k) => ({
          name: t.name,
          dims: t.dims,
          primary: series[k]!.info.kind === 'category' ? 0 : 1,
          template: Math.max(0, series[k]!.template),
          labels: labelRange(series[k]!.el) ? pointLabels(content.categories, t) : null,
          formats: cellFormats(series[k]!.info.kind, content.series[k]?.formatCode ?? input.numberFormat),
        })),
        hasCategories ? categories.values : null,
        fallbackSheet === undefined ? null : sheetPrefix(fallbackSheet),
        categoryKind.kind === 'date' && categories.formatCode !== null
          ? { code: categories.formatCode, anyDate: true }
          : null,
      )
    : null;

  series.forEach((entry, k) =>
    writeSeries(entry, targets[k]!, k, plan, hasCategories ? categories : null, input.numberFormat, content),
  );
  // Typed values: each group's linked value axis shows their format (the first typed series' of the group),
  // in LibreOffice too. A chart's `number_format` has set the axes itself (chart-settings.ts).
  if (input.numberFormat === undefined) {
    const linked = new Set<XmlElement>();
    series.forEach((entry, k) => {
      const code = content.series[k]?.formatCode;
      if (code === undefined || linked.has(entry.group)) return;
      linked.add(entry.group);
      linkValueAxisFormat(plotArea, entry.group, code);
    });
  }
  writeWorkbook(parts, source, workbook, plan, warn);
}

function plotAreaOf(root: XmlElement, partName: string): XmlElement {
  const chart = child(root, 'c:chart');
  const plotArea = chart && child(chart, 'c:plotArea');
  if (!plotArea) throw new EngineError('INVALID_TEMPLATE', 'the chart part has no plot area', partName);
  return plotArea;
}

function writeSeries(
  entry: ChartSeriesEntry,
  target: SeriesTarget,
  k: number,
  plan: LayoutPlan | null,
  categories: CategoryValues | null,
  numberFormat: string | undefined,
  content: ChartContent,
): void {
  const { el, info } = entry;
  const order = info.seriesOrder;
  const formulas = plan?.formulas[k];
  writeSeriesName(el, order, target.name, formulas?.name ?? null);
  const dims = DIMENSIONS[info.kind];
  if (info.kind === 'category' && categories)
    writeDimension(
      el,
      order,
      'c:cat',
      categories.values,
      formulas?.categories ?? null,
      categories.formatCode,
    );
  dims.forEach((name, d) => {
    const values = target.dims[d] ?? [];
    const text = values.some((v) => typeof v === 'string');
    const format = text
      ? null
      : ((d > 0 || info.kind === 'category' ? (content.series[k]?.formatCode ?? numberFormat) : undefined) ??
        templateFormatCode(el, name) ??
        'General');
    writeDimension(el, order, name, values, formulas?.dims[d] ?? null, format);
  });
  const points = target.dims[0]?.length ?? 0;
  fitPoints(el, points);
  const range = labelRange(el);
  if (range) writeLabelRange(range, pointLabels(content.categories, target), formulas?.labels ?? null);
}

/**
 * The number format of each dimension's workbook cells: the code its cache shows when that code is the series'
 * typed values' or the chart's `number_format` (values; y and size for scatter and bubble, see writeSeries),
 * else null (the cells keep theirs), so "Edit Data" shows the numbers as the chart does.
 */
function cellFormats(kind: SeriesKind, formatCode: string | undefined): (CellFormat | null)[] {
  return DIMENSIONS[kind].map((_, d) =>
    formatCode !== undefined && (d > 0 || kind === 'category') ? { code: formatCode, anyDate: false } : null,
  );
}

/** Point labels from cells (a scatter series' `c15:datalabelsRange`): the categories, when one per point. */
function pointLabels(categories: readonly string[], target: SeriesTarget): string[] {
  const points = target.dims[0]?.length ?? 0;
  return categories.length === points ? [...categories] : Array.from({ length: points }, () => '');
}

function templateRefs(entry: ChartSeriesEntry, resolve: (f: string) => Area[] | null): TemplateRefs {
  const { el, info } = entry;
  const areas = (name: string): Area[] | null => {
    const f = formulaOf(el, name);
    return f === null ? null : resolve(f);
  };
  const range = labelRange(el);
  const labelFormula = range ? child(range, 'c15:f') : undefined;
  return {
    name: areas('c:tx'),
    categories: info.kind === 'category' ? areas('c:cat') : null,
    dims: DIMENSIONS[info.kind].map(areas),
    labels: labelFormula ? resolve(textOf(labelFormula)) : null,
  };
}

/** Every formula the series has names cells (else its workbook cannot be followed). */
function formulasResolve(entry: ChartSeriesEntry, resolve: (f: string) => Area[] | null): boolean {
  for (const f of descendants(entry.el, 'c:f')) if (resolve(textOf(f)) === null) return false;
  return true;
}

function categoryTemplate(
  series: readonly ChartSeriesEntry[],
  plotArea: XmlElement,
): { kind: 'text' } | { kind: 'number' | 'date'; formatCode: string } {
  const withCategories = series.find((s) => s.info.kind === 'category' && child(s.el, 'c:cat'));
  if (!withCategories) return { kind: 'text' };
  const form = dimensionForm(withCategories.el, 'c:cat');
  if (form !== 'c:numRef' && form !== 'c:numLit') return { kind: 'text' };
  const code = templateFormatCode(withCategories.el, 'c:cat') ?? 'General';
  if (isDateFormat(code)) return { kind: 'date', formatCode: code };
  if (childElements(plotArea, 'c:dateAx').length > 0) return { kind: 'date', formatCode: 'm/d/yyyy' };
  return { kind: 'number', formatCode: code };
}

function textOf(el: XmlElement): string {
  return el.children.map((n) => (n.kind === 'text' ? n.text : '')).join('');
}
