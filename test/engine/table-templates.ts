/** Template variants for table scenarios, made from corpus decks by small edits (package-edit.ts). */
import { editPart } from '../support/package-edit.js';

/** `Table <n>` of table-case004's slide wrapped in a group named "Grouped", at the same place and size. */
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

/**
 * The `report.pptx` of docs/payload-tables.md: table-case004.pptx (its slide has "Table 1", 6 rows × 5 columns
 * with a header row, and "Table 2") with a title placeholder "Title 1" added.
 */
export function reportTemplate(template: Uint8Array): Uint8Array {
  const title =
    '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title 1"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr>' +
    '<p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>' +
    '<a:p><a:r><a:rPr lang="en-US"/><a:t>Quarterly figures</a:t></a:r></a:p></p:txBody></p:sp>';
  return editPart(template, 'ppt/slides/slide1.xml', (xml) => {
    const at = xml.indexOf('</p:grpSpPr>') + '</p:grpSpPr>'.length;
    return xml.slice(0, at) + title + xml.slice(at);
  });
}
