/** Template variants for table scenarios, made from the owned table template by small edits (package-edit.ts). */
import { editPart } from '../../support/decks/package-edit.js';

/** `Table <n>` of the template's first slide wrapped in a group named "Grouped", at the same place and size. */
export function groupTable(template: Uint8Array, tableNumber: number, scaleY = 1): Uint8Array {
  return editPart(template, 'ppt/slides/slide1.xml', (xml) => {
    const name = xml.indexOf(`name="Table ${tableNumber}"`);
    const start = xml.lastIndexOf('<p:graphicFrame>', name);
    const end = xml.indexOf('</p:graphicFrame>', name) + '</p:graphicFrame>'.length;
    const frame = xml.slice(start, end);
    const off = /<a:off x="(\d+)" y="(\d+)"\/><a:ext cx="(\d+)" cy="(\d+)"\/>/.exec(frame)!;
    const [x, y, cx, cy] = off.slice(1).map(Number) as [number, number, number, number];
    const group =
      '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="900" name="Grouped"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>' +
      `<p:grpSpPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="${cx}" cy="${Math.round(cy * scaleY)}"/>` +
      `<a:chOff x="${x}" y="${y}"/><a:chExt cx="${cx}" cy="${cy}"/></a:xfrm></p:grpSpPr>${frame}</p:grpSp>`;
    return xml.slice(0, start) + group + xml.slice(end);
  });
}
