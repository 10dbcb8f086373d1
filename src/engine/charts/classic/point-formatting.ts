/**
 * Per-point overrides are sparse and keyed by point index (`c:dPt/c:idx`, `c:dLbls/c:dLbl/c:idx`): after the
 * point count shrinks, the ones for points that no longer exist go (docs/powerpoint-rules.md
 * "Changing series and point counts"). A series whose every point had its own label (labels from cells, Office
 * 2013's `c15:datalabelsRange`) gets one for each new point too, cloned from the last.
 */
import { randomUUID } from 'node:crypto';
import {
  child,
  childElements,
  cloneElement,
  descendants,
  element,
  removeNode,
  text,
  type XmlElement,
} from '../../xml/index.js';

export function fitPoints(series: XmlElement, points: number): void {
  for (const dPt of childElements(series, 'c:dPt')) if (indexOf(dPt) >= points) removeNode(series, dPt);
  const dLbls = child(series, 'c:dLbls');
  if (!dLbls) return;
  const labels = childElements(dLbls, 'c:dLbl');
  const every = labels.length > 0 && labels.every((l, i) => indexOf(l) === i);
  for (const label of labels) if (indexOf(label) >= points) removeNode(dLbls, label);
  const last = labels[labels.length - 1];
  if (!every || !last) return;
  let at = dLbls.children.indexOf(last) + 1;
  for (let i = labels.length; i < points; i++) {
    const copy = cloneElement(last);
    const idx = child(copy, 'c:idx');
    if (idx) idx.attrs.val = String(i);
    for (const field of descendants(copy, 'a:fld')) field.attrs.id = `{${randomUUID().toUpperCase()}}`;
    for (const id of descendants(copy, 'c16:uniqueId')) id.attrs.val = `{${randomUUID().toUpperCase()}}`;
    dLbls.children.splice(at++, 0, copy);
  }
}

function indexOf(el: XmlElement): number {
  return Number(child(el, 'c:idx')?.attrs.val ?? -1);
}

const LABEL_RANGE_EXT = '{02D57815-91ED-43cb-92C2-25804820EDAC}';

/** The series' Office 2013 data label range (`c15:datalabelsRange`), if it has one. */
export function labelRange(series: XmlElement): XmlElement | undefined {
  const extLst = child(series, 'c:extLst');
  for (const ext of extLst ? childElements(extLst, 'c:ext') : []) {
    if (ext.attrs.uri !== LABEL_RANGE_EXT) continue;
    const range = child(ext, 'c15:datalabelsRange');
    if (range) return range;
  }
  return undefined;
}

/**
 * Rewrites the label range's formula and cache: the same length as the points (docs/powerpoint-rules.md
 * "Changing series and point counts").
 */
export function writeLabelRange(
  range: XmlElement,
  labels: readonly (string | number | null)[],
  formula: string | null,
): void {
  const f = child(range, 'c15:f');
  if (f && formula) f.children = [text(formula)];
  const cache = element('c15:dlblRangeCache', {}, [
    element('c:ptCount', { val: String(labels.length) }),
    ...labels.flatMap((label, i) =>
      label === null || label === ''
        ? []
        : [element('c:pt', { idx: String(i) }, [element('c:v', {}, [text(String(label))])])],
    ),
  ]);
  const old = child(range, 'c15:dlblRangeCache');
  if (old) range.children[range.children.indexOf(old)] = cache;
  else range.children.push(cache);
}
