/**
 * The number format of value axes linked to their source (docs/powerpoint-rules.md, "Axis formats linked to the
 * data"): an axis whose `c:numFmt` has `sourceLinked="1"`, or that has no `c:numFmt`, shows its values' format
 * (ECMA-376 Part 1 §21.2.2.121), and PowerPoint writes that format into the axis's `formatCode` when it saves.
 * LibreOffice reads the `formatCode` and not the link: an axis left at `General` draws 0.1 … 0.6 for values typed
 * `0.0%`, in the PDF and the previews. So when the values of a chart group are typed, its value axis gets their
 * format code, still linked, as PowerPoint would have saved it; an axis with a format of its own
 * (`sourceLinked="0"`, or `number_format`) keeps it.
 */
import { child, childElements, element, insertInOrder, type XmlElement } from '../../xml/index.js';
import { AXIS_ORDER } from './chart-settings.js';

/**
 * Writes `formatCode` into the linked value axis of `group` (a chart type element: its second `c:axId` is the axis
 * its values are drawn against; a scatter's first is its x axis, which shows other numbers).
 */
export function linkValueAxisFormat(plotArea: XmlElement, group: XmlElement, formatCode: string): void {
  const axisId = childElements(group, 'c:axId')[1]?.attrs.val;
  if (axisId === undefined) return;
  const axis = childElements(plotArea, 'c:valAx').find((ax) => child(ax, 'c:axId')?.attrs.val === axisId);
  if (!axis) return;
  const numFmt = child(axis, 'c:numFmt');
  if (!numFmt) {
    insertInOrder(axis, element('c:numFmt', { formatCode, sourceLinked: '1' }), AXIS_ORDER);
    return;
  }
  const linked = numFmt.attrs.sourceLinked;
  if (linked === '1' || linked === 'true') numFmt.attrs.formatCode = formatCode;
}
