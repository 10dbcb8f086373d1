/**
 * Writing one chartEx series' data (docs/powerpoint-rules.md "chartEx charts"): its text dimension (`cx:strDim`,
 * the categories: one level, or the template's levels kept for a region map), its number dimension (`cx:numDim`:
 * values, sizes or colour values, with the template's format code or the typed values'), each with the formula
 * (`cx:f`) that names the new cells, and its name (`cx:tx/cx:txData`). Point formatting, labels and waterfall
 * subtotals of points that no longer exist go: PowerPoint keys them by point index.
 */
import {
  child,
  childElements,
  element,
  removeNode,
  text,
  textContent,
  type XmlElement,
} from '../../xml/index.js';
import type { ExSeries } from './chart-ex-series.js';
import type { LayoutPlan } from '../data-layout.js';
import { numberText, type PointValue } from '../series-caches.js';

export function strDim(data: XmlElement): XmlElement | undefined {
  return child(data, 'cx:strDim');
}

export function numDim(data: XmlElement): XmlElement | undefined {
  return child(data, 'cx:numDim');
}

export function txData(series: XmlElement): XmlElement | undefined {
  const tx = child(series, 'cx:tx');
  return tx && child(tx, 'cx:txData');
}

/** The leaf level of a series' text dimension (a region map's regions), as text by point. */
export function leafCategories(data: XmlElement): string[] {
  const dim = strDim(data);
  const lvl = dim && childElements(dim, 'cx:lvl')[0];
  if (!lvl) return [];
  const byIndex = new Map(childElements(lvl, 'cx:pt').map((pt) => [Number(pt.attrs.idx), textContent(pt)]));
  return Array.from({ length: Number(lvl.attrs.ptCount ?? byIndex.size) }, (_, i) => byIndex.get(i) ?? '');
}

export interface ExSeriesData {
  name: string;
  values: readonly PointValue[];
  /** The categories to write; null keeps the template's text dimension as it is (a region map's regions). */
  categories: readonly string[] | null;
  formulas: LayoutPlan['formulas'][number] | null;
  /** The format code of the series' typed values; none keeps the template's. */
  formatCode?: string | undefined;
}

export function writeExSeries(s: ExSeries, d: ExSeriesData): void {
  const str = strDim(s.data);
  if (str && d.categories) replaceLevels(str, d.formulas?.categories ?? null, d.categories, null);
  const num = numDim(s.data);
  if (num) {
    // CT_NumericLevel's formatCode ([MS-ODRAWXML] chartex): how labels show the values that follow the source.
    const format = d.formatCode ?? childElements(num, 'cx:lvl')[0]?.attrs.formatCode ?? 'General';
    const values = d.values.map((v) => (typeof v === 'number' ? numberText(v) : v));
    replaceLevels(num, d.formulas?.dims[0] ?? null, values, format);
  }
  const tx = child(s.el, 'cx:tx') ?? element('cx:tx');
  const f = d.formulas?.name ? [element('cx:f', {}, [text(d.formulas.name)])] : [];
  tx.children = [element('cx:txData', {}, [...f, element('cx:v', {}, [text(d.name)])])];
  if (!child(s.el, 'cx:tx')) s.el.children.unshift(tx);
  dropPointsFrom(s.el, d.values.length);
}

/** Per-point formatting, labels and waterfall subtotals keyed by an index the series no longer has. */
function dropPointsFrom(series: XmlElement, points: number): void {
  const beyond = (el: XmlElement, attr: string): boolean => Number(el.attrs[attr]) >= points;
  for (const el of childElements(series, 'cx:dataPt')) if (beyond(el, 'idx')) removeNode(series, el);
  const labels = child(series, 'cx:dataLabels');
  if (labels)
    for (const el of childElements(labels))
      if ((el.name === 'cx:dataLabel' || el.name === 'cx:dataLabelHidden') && beyond(el, 'idx'))
        removeNode(labels, el);
  const layoutPr = child(series, 'cx:layoutPr');
  const subtotals = layoutPr && child(layoutPr, 'cx:subtotals');
  if (subtotals)
    for (const idx of childElements(subtotals, 'cx:idx')) if (beyond(idx, 'val')) removeNode(subtotals, idx);
}

/** One level of points (`cx:lvl`) in place of the template's, the formula kept in its place. */
function replaceLevels(
  dim: XmlElement,
  formula: string | null,
  values: readonly (string | null)[],
  formatCode: string | null,
): void {
  const f = child(dim, 'cx:f');
  if (f && formula) f.children = [text(formula)];
  const lvl = element(
    'cx:lvl',
    formatCode === null ? { ptCount: String(values.length) } : { ptCount: String(values.length), formatCode },
    [],
  );
  values.forEach((value, i) => {
    if (value !== null && (formatCode === null || value !== ''))
      lvl.children.push(element('cx:pt', { idx: String(i) }, [text(value)]));
  });
  const kept = dim.children.filter((n) => n.kind !== 'element' || n.name !== 'cx:lvl');
  const at = kept.findIndex((n) => n.kind === 'element' && n.name !== 'cx:f' && n.name !== 'cx:nf');
  kept.splice(at < 0 ? kept.length : at, 0, lvl);
  dim.children = kept;
}
