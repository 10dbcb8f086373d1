/**
 * What a chartEx chart is (docs/powerpoint-rules.md "chartEx charts") and what its points mean. The part names a
 * layout per series (`cx:series/@layoutId`); a histogram and a pareto chart are both `clusteredColumn` series,
 * told apart by their layout properties: binning (`cx:binning`: the values are observations sorted into bins) or
 * aggregation (`cx:aggregation`: values summed by category), and a pareto chart adds a `paretoLine` series that
 * follows its owner (`@ownerIdx`) and has no data of its own.
 */
import { child, childElements, type XmlElement } from '../../xml/index.js';

export type ExPoints =
  /** One point per category, drawn in order (waterfall, funnel, treemap, sunburst, by-category histogram). */
  | 'categories'
  /** One point per observation; the category names the box it falls in (box & whisker). */
  | 'groups'
  /** One point per observation, sorted into bins: no categories are drawn (histogram). */
  | 'observations'
  /** One point per region of the map the chart was made with (region map). */
  | 'regions';

export interface ExLayout {
  /** The name inspect reports: `waterfall`, `histogram`, `pareto`, `boxWhisker` … */
  name: string;
  /** "a waterfall chart", for messages. */
  label: string;
  /** Whether the chart draws one series only. */
  single: boolean;
  points: ExPoints;
}

const LAYOUTS: Record<string, Omit<ExLayout, 'name'>> = {
  waterfall: { label: 'a waterfall chart', single: true, points: 'categories' },
  funnel: { label: 'a funnel chart', single: true, points: 'categories' },
  treemap: { label: 'a treemap', single: true, points: 'categories' },
  sunburst: { label: 'a sunburst chart', single: true, points: 'categories' },
  regionMap: { label: 'a region map', single: true, points: 'regions' },
  boxWhisker: { label: 'a box and whisker chart', single: false, points: 'groups' },
};

export function isParetoLine(series: XmlElement): boolean {
  return series.attrs.layoutId === 'paretoLine';
}

/** The layout of a chartEx plot area region, from its first series that is not a pareto line. */
export function exLayout(region: XmlElement): ExLayout {
  const all = childElements(region, 'cx:series');
  const owner = all.find((s) => !isParetoLine(s));
  const id = owner?.attrs.layoutId ?? '';
  const known = LAYOUTS[id];
  if (known) return { name: id, ...known };
  const layoutPr = owner && child(owner, 'cx:layoutPr');
  const byCategory = !!layoutPr && !!child(layoutPr, 'cx:aggregation');
  const pareto = all.some(isParetoLine);
  if (id === 'clusteredColumn')
    return {
      name: pareto ? 'pareto' : 'histogram',
      label: pareto ? 'a pareto chart' : 'a histogram',
      single: false,
      points: byCategory ? 'categories' : 'observations',
    };
  return { name: id || 'chartEx', label: 'a chart', single: false, points: 'categories' };
}
