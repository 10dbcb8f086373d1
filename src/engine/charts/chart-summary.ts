/**
 * What `inspect` reports about a chart: its plot type(s), series names, category count, and whether its data
 * lives in an embedded workbook, a linked one, or none (docs/powerpoint-rules.md "Chart parts and their workbook").
 */
import { resolveTarget, type Relationship } from '../package/relationships.js';
import { child, childElements, descendants, localName, textContent, type XmlElement } from '../xml/index.js';
import { classicChartData, type ChartData } from './classic/chart-data.js';
import { seriesRegion } from './chart-ex/chart-ex.js';
import { exLayout, isParetoLine } from './chart-ex/chart-ex-layout.js';
import { dataRelationship } from './chart-workbook.js';
import { describeGroup, plotGroups } from './classic/plot-groups.js';
import { chartSeries } from './classic/series-resize.js';

export interface ChartSummary {
  /**
   * `bar (column, clustered)`, `line`, `pie`; `sunburst`, `histogram`, `pareto` … (chart-ex-layout.ts); several
   * for a combination chart.
   */
  types: string[];
  series: string[];
  categories: number;
  workbook: 'embedded' | 'linked' | 'missing';
  /** A classic chart's data from its caches, as a chart's `content` gives it (chart-data.ts). */
  data?: ChartData;
}

export interface ChartReader {
  /** The part the owning slide's relationship `relId` points at (internal), or null. */
  target(relId: string): string | null;
  has(partName: string): boolean;
  xml(partName: string): XmlElement;
  relationships(partName: string): readonly Relationship[];
}

/** The summary of the chart a graphic frame (or its mc:AlternateContent) shows; null when it has none. */
export function summarizeChart(frame: XmlElement, reader: ChartReader): ChartSummary | null {
  const chart = [...descendants(frame)].find(
    (el) => localName(el.name) === 'chart' && Object.keys(el.attrs).some((k) => k.endsWith(':id')),
  );
  const relId = chart && Object.entries(chart.attrs).find(([k]) => k.endsWith(':id'))?.[1];
  const partName = relId ? reader.target(relId) : null;
  if (!partName || !reader.has(partName)) return null;
  const root = reader.xml(partName);
  const classic = root.name === 'c:chartSpace';
  const externalData = classic
    ? child(root, 'c:externalData')
    : child(child(root, 'cx:chartData') ?? root, 'cx:externalData');
  const workbook = workbookKind(partName, externalData, reader);
  if (!classic) return { ...chartExSummary(root), workbook };
  const data = classicChartData(root);
  return data ? { ...classicSummary(root), workbook, data } : { ...classicSummary(root), workbook };
}

function classicSummary(root: XmlElement): Omit<ChartSummary, 'workbook'> {
  const chart = child(root, 'c:chart');
  const plotArea = chart && child(chart, 'c:plotArea');
  if (!plotArea) return { types: [], series: [], categories: 0 };
  const series = chartSeries(plotArea);
  const counts = series.map((s) =>
    pointCount(child(s.el, 'c:cat') ?? child(s.el, 'c:xVal') ?? child(s.el, 'c:val')),
  );
  return {
    types: [...new Set(plotGroups(plotArea).map(describeGroup))],
    series: series.map((s) => cachedName(child(s.el, 'c:tx'))),
    categories: Math.max(0, ...counts),
  };
}

function chartExSummary(root: XmlElement): Omit<ChartSummary, 'workbook'> {
  const region = seriesRegion(root);
  const series = region ? childElements(region, 'cx:series') : [];
  const data = [...descendants(root, 'cx:data')][0];
  const lvl = data && [...descendants(data, 'cx:lvl')][0];
  return {
    types: region && series.length > 0 ? [exLayout(region).name] : [],
    series: series
      .filter((s) => !isParetoLine(s))
      .map((s) => textContent(child(child(child(s, 'cx:tx') ?? s, 'cx:txData') ?? s, 'cx:v') ?? s)),
    categories: Number(lvl?.attrs.ptCount ?? 0),
  };
}

function pointCount(dimension: XmlElement | undefined): number {
  const count = dimension && [...descendants(dimension, 'c:ptCount')][0];
  return Number(count?.attrs.val ?? 0);
}

function cachedName(tx: XmlElement | undefined): string {
  if (!tx) return '';
  const literal = child(tx, 'c:v');
  if (literal) return textContent(literal);
  const v = [...descendants(tx, 'c:v')][0];
  return v ? textContent(v) : '';
}

function workbookKind(
  partName: string,
  externalData: XmlElement | undefined,
  reader: ChartReader,
): ChartSummary['workbook'] {
  const rel = dataRelationship(reader.relationships(partName), externalData);
  if (!rel) return 'missing';
  if (rel.external) return 'linked';
  return reader.has(resolveTarget(partName, rel.target)) ? 'embedded' : 'missing';
}
