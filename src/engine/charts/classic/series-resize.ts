/**
 * More or fewer series than the template has (docs/powerpoint-rules.md "Changing series and point counts"). A new
 * series is a clone of the last one (its formatting, markers, labels), placed in the same plot group, with
 * `c:idx`/`c:order` unique across the chart (rule: unique within the chart, python-pptx allocates max + 1), fresh
 * `c16:uniqueId`s, and the next theme accent colour so it can be told apart. Extra series are removed; a plot
 * group left without series goes, and so do the axes only it used (a combination chart's secondary axes).
 */
import { randomUUID } from 'node:crypto';
import {
  child,
  childElements,
  cloneElement,
  descendants,
  element,
  removeNode,
  type XmlElement,
} from '../../xml/index.js';
import { appendSeries, plotGroupInfo, plotGroups, type PlotGroupInfo } from './plot-groups.js';

export interface ChartSeriesEntry {
  el: XmlElement;
  group: XmlElement;
  info: PlotGroupInfo;
  /** The template series this one is, or was cloned from (-1: built from nothing). */
  template: number;
}

const AXES = ['c:catAx', 'c:valAx', 'c:dateAx', 'c:serAx'];

/**
 * PowerPoint's colour variations for series beyond the sixth (chart colour style `cs:variation`s): the accents
 * again, darker, then lighter.
 */
const VARIATIONS: readonly (readonly [string, string][])[] = [
  [],
  [['a:lumMod', '60000']],
  [
    ['a:lumMod', '80000'],
    ['a:lumOff', '20000'],
  ],
  [['a:lumMod', '80000']],
  [
    ['a:lumMod', '60000'],
    ['a:lumOff', '40000'],
  ],
  [['a:lumMod', '50000']],
];

/** The chart's series in legend order: by `c:order`, document order breaking ties. */
export function chartSeries(plotArea: XmlElement): ChartSeriesEntry[] {
  const found: (ChartSeriesEntry & { order: number; at: number })[] = [];
  for (const group of plotGroups(plotArea)) {
    const info = plotGroupInfo(group.name) as PlotGroupInfo;
    for (const el of childElements(group, 'c:ser')) {
      const order = Number(child(el, 'c:order')?.attrs.val);
      found.push({
        el,
        group,
        info,
        template: found.length,
        order: Number.isFinite(order) ? order : found.length,
        at: found.length,
      });
    }
  }
  found.sort((a, b) => a.order - b.order || a.at - b.at);
  return found.map(({ el, group, info }, i) => ({ el, group, info, template: i }));
}

/** Makes the chart hold exactly `count` series; returns them in legend order. */
export function resizeSeries(
  plotArea: XmlElement,
  series: readonly ChartSeriesEntry[],
  count: number,
): ChartSeriesEntry[] {
  if (count <= series.length) {
    for (const gone of series.slice(count)) removeNode(gone.group, gone.el);
    removeEmptyGroups(plotArea);
    return series.slice(0, count);
  }
  const result = [...series];
  let idx = maxVal(plotArea, 'c:idx');
  let order = maxVal(plotArea, 'c:order');
  const model = series[series.length - 1] ?? emptySeriesOf(plotArea);
  const added: XmlElement[] = [];
  for (let k = series.length; k < count; k++) {
    const el = model.template < 0 && k === 0 ? model.el : cloneElement(model.el);
    setVal(el, 'c:idx', ++idx);
    setVal(el, 'c:order', ++order);
    if (model.template >= 0) recolour(el, k);
    for (const id of descendants(el, 'c16:uniqueId')) id.attrs.val = `{${randomUUID().toUpperCase()}}`;
    added.push(el);
    result.push({ el, group: model.group, info: model.info, template: model.template });
  }
  appendSeries(model.group, added); // at once: one by one, each append would look for the group's end again
  return result;
}

/** A chart whose template has no series at all: a bare series in its first group (the caches are added next). */
function emptySeriesOf(plotArea: XmlElement): ChartSeriesEntry {
  const group = plotGroups(plotArea)[0];
  if (!group) throw new RangeError('a chart without plot groups has no series to fill');
  const el = element('c:ser', {}, [element('c:idx', { val: '0' }), element('c:order', { val: '0' })]);
  return { el, group, info: plotGroupInfo(group.name) as PlotGroupInfo, template: -1 };
}

function maxVal(plotArea: XmlElement, name: string): number {
  let max = -1;
  for (const ser of descendants(plotArea, 'c:ser'))
    max = Math.max(max, Number(child(ser, name)?.attrs.val) || 0);
  return max;
}

function setVal(el: XmlElement, name: string, value: number): void {
  const target = child(el, name);
  if (target) target.attrs.val = String(value);
}

/** The series' own fills and lines (and its markers') take accent `position % 6 + 1`, varied past the sixth. */
export function recolour(series: XmlElement, position: number): void {
  const accent = `accent${(position % 6) + 1}`;
  const variation = VARIATIONS[Math.floor(position / 6) % VARIATIONS.length] ?? [];
  const colour = (): XmlElement =>
    element(
      'a:schemeClr',
      { val: accent },
      variation.map(([name, val]) => element(name, { val })),
    );
  const marker = child(series, 'c:marker');
  for (const spPr of [child(series, 'c:spPr'), marker && child(marker, 'c:spPr')]) {
    if (!spPr) continue;
    for (const fill of [child(spPr, 'a:solidFill'), child(child(spPr, 'a:ln') ?? spPr, 'a:solidFill')]) {
      if (fill) fill.children = [colour()];
    }
  }
}

function removeEmptyGroups(plotArea: XmlElement): void {
  const groups = plotGroups(plotArea);
  for (const group of groups) {
    if (childElements(group, 'c:ser').length > 0 || groups.length === 1) continue;
    removeNode(plotArea, group);
  }
  const used = new Set<string>();
  for (const group of plotGroups(plotArea))
    for (const ax of childElements(group, 'c:axId')) used.add(ax.attrs.val ?? '');
  for (const axis of childElements(plotArea).filter((el) => AXES.includes(el.name))) {
    if (!used.has(child(axis, 'c:axId')?.attrs.val ?? '')) removeNode(plotArea, axis);
  }
}
