/**
 * A classic chart's data as its caches hold it (what PowerPoint draws: docs/powerpoint-rules.md
 * "Chart caches are what PowerPoint draws"), in the shape of a chart's `content` (docs/payload-charts.md):
 * categories and one `values` list per series, or `x`, `y` (and `size`) for scatter and bubble series. A point
 * the cache leaves out is a gap, `null`. Grouped categories give their innermost level, as a payload's categories
 * are one level.
 */
import { child, childElements, textContent, type XmlElement } from '../../xml/index.js';
import { chartSeries } from './series-resize.js';

export type CachedPoint = string | number | null;

export interface ChartCategoriesData {
  categories: (string | number)[];
  series: { name: string; values: (number | null)[] }[];
}

export interface ChartXyData {
  series: { name: string; x: (number | null)[]; y: (number | null)[]; size?: (number | null)[] }[];
}

export type ChartData = ChartCategoriesData | ChartXyData;

/** Null for a chart without a plot area or series, or one mixing scatter and category series. */
export function classicChartData(chartSpace: XmlElement): ChartData | null {
  const plotArea = child(child(chartSpace, 'c:chart') ?? chartSpace, 'c:plotArea');
  const series = plotArea ? chartSeries(plotArea) : [];
  if (series.length === 0) return null;
  const xy = series.filter((s) => child(s.el, 'c:yVal')).length;
  // A combination of scatter and category series has no one `content` form: no data rather than a wrong one.
  if (xy > 0 && xy < series.length) return null;
  if (xy > 0) {
    return {
      series: series.map(({ el }) => {
        const bubble = child(el, 'c:bubbleSize');
        const y = numbers(cachedPoints(child(el, 'c:yVal')));
        const x = cachedPoints(child(el, 'c:xVal'));
        return {
          name: seriesName(el),
          // Text x values are drawn at 1, 2, 3 …, as a spreadsheet plots them.
          x: x.length > 0 && x.every((p) => typeof p !== 'string') ? numbers(x) : y.map((_, i) => i + 1),
          y,
          ...(bubble ? { size: numbers(cachedPoints(bubble)) } : {}),
        };
      }),
    };
  }
  const categories = cachedPoints(child(series[0]!.el, 'c:cat'));
  const values = series.map(({ el }) => numbers(cachedPoints(child(el, 'c:val'))));
  const count = Math.max(categories.length, ...values.map((v) => v.length));
  return {
    categories:
      categories.length > 0
        ? pad(categories, count).map((c) => c ?? '')
        : Array.from({ length: count }, (_, i) => i + 1),
    series: series.map(({ el }, s) => ({ name: seriesName(el), values: pad(values[s]!, count) })),
  };
}

function seriesName(ser: XmlElement): string {
  const tx = child(ser, 'c:tx');
  if (!tx) return '';
  const literal = child(tx, 'c:v');
  if (literal) return textContent(literal);
  return String(cachedPoints(tx)[0] ?? '');
}

/**
 * The points of a dimension (`c:cat`, `c:val`, `c:tx` …) from its cache or literal: numbers from a number cache,
 * text from a text cache, by `c:pt/@idx` up to `c:ptCount`.
 */
function cachedPoints(dimension: XmlElement | undefined): CachedPoint[] {
  if (!dimension) return [];
  for (const holder of childElements(dimension)) {
    const cache = cacheOf(holder);
    if (!cache) continue;
    const numeric = cache.name === 'c:numCache' || cache.name === 'c:numLit';
    const pts = childElements(cache, 'c:pt');
    const count = Math.max(Number(child(cache, 'c:ptCount')?.attrs.val ?? 0) || 0, pts.length);
    const result: CachedPoint[] = new Array<CachedPoint>(count).fill(null);
    for (const pt of pts) {
      const idx = Number(pt.attrs.idx);
      const v = child(pt, 'c:v');
      if (!Number.isInteger(idx) || idx < 0 || idx >= count || !v) continue;
      const raw = textContent(v);
      result[idx] = numeric && raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    }
    return result;
  }
  return [];
}

function cacheOf(holder: XmlElement): XmlElement | undefined {
  switch (holder.name) {
    case 'c:strRef':
      return child(holder, 'c:strCache');
    case 'c:numRef':
      return child(holder, 'c:numCache');
    case 'c:strLit':
    case 'c:numLit':
      return holder;
    case 'c:multiLvlStrRef': {
      // The first c:lvl is the level nearest the axis: the categories themselves.
      const lvl = child(child(holder, 'c:multiLvlStrCache') ?? holder, 'c:lvl');
      const cache = child(holder, 'c:multiLvlStrCache');
      if (!lvl || !cache) return undefined;
      return {
        ...lvl,
        name: 'c:strCache',
        children: [...childElements(cache, 'c:ptCount'), ...lvl.children],
      };
    }
    default:
      return undefined;
  }
}

function numbers(points: CachedPoint[]): (number | null)[] {
  return points.map((p) => (typeof p === 'number' ? p : null));
}

function pad<T>(points: T[], count: number): (T | null)[] {
  return Array.from({ length: count }, (_, i) => points[i] ?? null);
}
