/**
 * The payload's chart content (docs/payload-charts.md) fitted to a chart: how many series it can take (a pie
 * draws one; a stock chart needs exactly its open/high/low/close series), and each series' data in the form its
 * plot group wants: values per category, x and y for scatter (a scatter series given `values` takes the
 * categories as its x values, as Excel does), x, y and size for bubbles.
 */
import { EngineError } from '../errors.js';
import type { ChartContent } from '../payload/model.js';
import { xFromCategories } from './category-values.js';
import type { PointValue } from './series-caches.js';

/** The data a series takes: values per category, x and y, or x, y and size. */
export type SeriesKind = 'category' | 'scatter' | 'bubble';

export interface SeriesTarget {
  name: string;
  /** category: [values]; scatter: [x, y]; bubble: [x, y, size]. */
  dims: PointValue[][];
}

export interface SeriesSlot {
  kind: SeriesKind;
  /** "a pie chart", for messages. */
  label: string;
}

/**
 * How many of the payload's series the chart takes. `single`: the chart draws one series (pie); `fixed`: it
 * needs exactly this many (stock). Extra series are dropped with a warning; too few for a stock chart is an error.
 */
export function seriesCount(
  given: number,
  capacity: { single: boolean; fixed: number | null; label: string },
  path: string,
  warn: (message: string) => void,
): number {
  const limit = capacity.single ? 1 : capacity.fixed;
  if (limit === null || given === limit) return given;
  if (given > limit) {
    warn(`${capacity.label} draws ${limit} series; the first ${limit} of the ${given} given were used`);
    return limit;
  }
  throw new EngineError(
    'CONTENT_MISMATCH',
    `${capacity.label} needs exactly ${limit} series (e.g. high, low, close; or open, high, low, close), got ${given}`,
    path,
  );
}

/** The category labels: the payload's, or 1…n when it gave none. */
export function categoryLabels(content: ChartContent): string[] {
  if (content.categories.length > 0) return content.categories;
  const n = Math.max(0, ...content.series.map((s) => s.values?.length ?? 0));
  return Array.from({ length: n }, (_, i) => String(i + 1));
}

export function seriesTargets(
  content: ChartContent,
  slots: readonly SeriesSlot[],
  categories: readonly string[],
  seriesPath: (k: number) => string,
): SeriesTarget[] {
  return slots.map((slot, k) => {
    const s = content.series[k]!;
    const path = seriesPath(k);
    if (slot.kind === 'category') {
      if (!s.values)
        throw new EngineError(
          'CONTENT_MISMATCH',
          `${slot.label} takes values (one per category) for each series, not x and y`,
          path,
        );
      return { name: s.name, dims: [pad(s.values, categories.length)] };
    }
    if (slot.kind === 'scatter') {
      if (s.x && s.y) return { name: s.name, dims: [s.x, s.y] };
      const values = s.values ?? [];
      return { name: s.name, dims: [xFromCategories(categories).slice(0, values.length), values] };
    }
    if (!s.x || !s.y || !s.size)
      throw new EngineError('CONTENT_MISMATCH', `${slot.label} takes x, y and size for each series`, path);
    return { name: s.name, dims: [s.x, s.y, s.size] };
  });
}

function pad(values: readonly (number | null)[], length: number): PointValue[] {
  return Array.from({ length }, (_, i) => values[i] ?? null);
}
