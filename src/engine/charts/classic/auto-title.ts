/**
 * The title a chart shows without having one: with no `c:title`, PowerPoint and LibreOffice draw the name of a
 * chart's only series above it, unless `c:autoTitleDeleted` says not to (ECMA-376 Part 1 §21.2.2.7; the element
 * is a CT_Boolean, whose `val` defaults to true). Filling a template chart whose one series had no name with a
 * named series would make that title appear: the filled slide would no longer look like the template.
 */
import { child, descendants, element, insertInOrder, type XmlElement } from '../../xml/index.js';
import { CHART_ORDER } from './chart-settings.js';

/** Whether the chart (`c:chartSpace`) shows a title: its own, or its only series' name. */
export function showsTitle(root: XmlElement): boolean {
  const chart = child(root, 'c:chart');
  if (!chart) return false;
  if (child(chart, 'c:title')) return true;
  const deleted = child(chart, 'c:autoTitleDeleted');
  if (deleted && deleted.attrs.val !== '0' && deleted.attrs.val !== 'false') return false;
  const plotArea = child(chart, 'c:plotArea');
  const series = plotArea ? [...descendants(plotArea, 'c:ser')] : [];
  return series.length === 1 && child(series[0]!, 'c:tx') !== undefined;
}

/** Turns off the automatic title when the chart now shows one (settings that set a title come after). */
export function keepTitleHidden(root: XmlElement): void {
  const chart = child(root, 'c:chart');
  if (!chart || !showsTitle(root)) return;
  insertInOrder(chart, element('c:autoTitleDeleted', { val: '1' }), CHART_ORDER);
}
