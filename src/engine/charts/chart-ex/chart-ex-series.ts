/**
 * The series of a chartEx part and their data blocks (docs/powerpoint-rules.md "chartEx charts"): a series names
 * its data by `cx:dataId`; a pareto line (`layoutId="paretoLine"`) has no data and follows the series at position
 * `@ownerIdx` among the region's `cx:series`. Resizing keeps that sound: a series that goes takes its line with
 * it, a series cloned from one with a line gets a line of its own, and every line's `ownerIdx` is set again from
 * where its owner now stands. New series and data blocks get fresh ids, format indices and unique ids.
 */
import { randomUUID } from 'node:crypto';
import { child, childElements, cloneElement, removeNode, type XmlElement } from '../../xml/index.js';
import { isParetoLine } from './chart-ex-layout.js';

export interface ExSeries {
  el: XmlElement;
  data: XmlElement;
}

/** The series that take data, in document order, each with its data block. */
export function exSeries(region: XmlElement, chartData: XmlElement): ExSeries[] {
  const data = childElements(chartData, 'cx:data');
  return childElements(region, 'cx:series')
    .filter((el) => !isParetoLine(el))
    .flatMap((el) => {
      const id = child(el, 'cx:dataId')?.attrs.val;
      const found = data.find((d) => d.attrs.id === id);
      return found ? [{ el, data: found }] : [];
    });
}

/** Keeps the first `count` series, cloning the last one for more. */
export function resizeExSeries(
  chartData: XmlElement,
  region: XmlElement,
  template: readonly ExSeries[],
  count: number,
): ExSeries[] {
  const owners = lineOwners(region);
  for (const gone of template.slice(count)) {
    for (const [line, owner] of owners) if (owner === gone.el) removeNode(region, line);
    removeNode(region, gone.el);
    removeNode(chartData, gone.data);
  }
  const result = template.slice(0, count);
  const model = template[template.length - 1]!;
  const modelLines = [...owners].filter(([, owner]) => owner === model.el).map(([line]) => line);
  const ids = new Counter(childElements(chartData, 'cx:data').map((d) => d.attrs.id));
  const formats = new Counter(childElements(region, 'cx:series').map((s) => s.attrs.formatIdx));
  for (let k = template.length; k < count; k++) {
    const last = result[result.length - 1]!;
    const data = cloneElement(model.data);
    data.attrs.id = ids.next();
    insertAfter(chartData, last.data, data);
    const el = renewed(cloneElement(model.el), formats);
    const dataId = child(el, 'cx:dataId');
    if (dataId) dataId.attrs.val = data.attrs.id;
    insertAfter(region, last.el, el);
    result.push({ el, data });
    for (const line of modelLines) {
      const copy = renewed(cloneElement(line), formats);
      const series = childElements(region, 'cx:series');
      insertAfter(region, series[series.length - 1]!, copy);
      owners.set(copy, el);
    }
  }
  renumberOwners(region, owners);
  return result;
}

/** Each pareto line of the region with the series it follows (before anything moves). */
function lineOwners(region: XmlElement): Map<XmlElement, XmlElement> {
  const all = childElements(region, 'cx:series');
  const owners = new Map<XmlElement, XmlElement>();
  for (const line of all.filter(isParetoLine)) {
    const owner = all[Number(line.attrs.ownerIdx)];
    if (owner && !isParetoLine(owner)) owners.set(line, owner);
  }
  return owners;
}

/** `ownerIdx` is a position among the region's series: set it again now that series came and went. */
function renumberOwners(region: XmlElement, owners: ReadonlyMap<XmlElement, XmlElement>): void {
  const all = childElements(region, 'cx:series');
  for (const [line, owner] of owners) {
    const at = all.indexOf(owner);
    if (at >= 0 && all.includes(line)) line.attrs.ownerIdx = String(at);
  }
}

/** A cloned series made distinct: a unique id of its own and the next format index (its colour). */
function renewed(el: XmlElement, formats: Counter): XmlElement {
  if (el.attrs.uniqueId !== undefined) el.attrs.uniqueId = `{${randomUUID().toUpperCase()}}`;
  if (el.attrs.formatIdx !== undefined) el.attrs.formatIdx = formats.next();
  return el;
}

function insertAfter(parent: XmlElement, after: XmlElement, el: XmlElement): void {
  parent.children.splice(parent.children.indexOf(after) + 1, 0, el);
}

/** Hands out numbers above every one already used. */
class Counter {
  private last: number;
  constructor(used: readonly (string | undefined)[]) {
    this.last = Math.max(-1, ...used.map((u) => Number(u)).filter((n) => Number.isInteger(n)));
  }
  next(): string {
    this.last += 1;
    return String(this.last);
  }
}
