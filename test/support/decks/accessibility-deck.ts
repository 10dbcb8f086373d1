/**
 * A deck for the accessibility checks (docs/payload.md, Accessibility), on the layouts template: slide 0 has a
 * title, a table without a header row ("Table 1") and a group ("Group 1") holding a picture ("Picture 1"),
 * none of them described; slide 1 has a text box only ("TextBox 1"), and so no title.
 */
import { slidesDeck, titleShape } from './one-slide-deck.js';

/** A 1×1 red PNG. */
const PIXEL = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
    'base64',
  ),
);

const cell = (text: string): string =>
  `<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>${text}</a:t></a:r></a:p></a:txBody><a:tcPr/></a:tc>`;

const TABLE =
  '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="3" name="Table 1"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>' +
  '<p:xfrm><a:off x="457200" y="1600200"/><a:ext cx="4000000" cy="740000"/></p:xfrm>' +
  '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr/>' +
  '<a:tblGrid><a:gridCol w="2000000"/><a:gridCol w="2000000"/></a:tblGrid>' +
  `<a:tr h="370000">${cell('Region')}${cell('Sales')}</a:tr><a:tr h="370000">${cell('North')}${cell('1200')}</a:tr>` +
  '</a:tbl></a:graphicData></a:graphic></p:graphicFrame>';

const GROUP =
  '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="4" name="Group 1"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>' +
  '<p:grpSpPr><a:xfrm><a:off x="5000000" y="1600200"/><a:ext cx="1000000" cy="1000000"/><a:chOff x="5000000" y="1600200"/><a:chExt cx="1000000" cy="1000000"/></a:xfrm></p:grpSpPr>' +
  '<p:pic><p:nvPicPr><p:cNvPr id="5" name="Picture 1"/><p:cNvPicPr><a:picLocks noChangeAspect="1"/></p:cNvPicPr><p:nvPr/></p:nvPicPr>' +
  '<p:blipFill><a:blip r:embed="rId2"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>' +
  '<p:spPr><a:xfrm><a:off x="5000000" y="1600200"/><a:ext cx="1000000" cy="1000000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>' +
  '</p:grpSp>';

const TEXT_BOX =
  '<p:sp><p:nvSpPr><p:cNvPr id="2" name="TextBox 1"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>' +
  '<p:spPr><a:xfrm><a:off x="457200" y="457200"/><a:ext cx="4572000" cy="646331"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>' +
  '<p:txBody><a:bodyPr wrap="square"/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>Notes without a title</a:t></a:r></a:p></p:txBody></p:sp>';

let bytes: Uint8Array | undefined;

export function accessibilityDeck(): Uint8Array {
  bytes ??= slidesDeck([
    {
      layout: 6,
      shapes: titleShape('Sales by region') + TABLE + GROUP,
      rels: [['rId2', 'image', '../media/image1.png']],
      parts: { 'ppt/media/image1.png': { bytes: PIXEL, type: null } },
      defaults: { png: 'image/png' },
    },
    { layout: 6, shapes: TEXT_BOX },
  ]);
  return bytes.slice();
}

/** One slide with a title and `count` pictures, none described: `count` accessibility findings per copy. */
export function undescribedPicturesDeck(count: number): Uint8Array {
  const pictures = Array.from(
    { length: count },
    (_, i) =>
      `<p:pic><p:nvPicPr><p:cNvPr id="${i + 10}" name="Picture ${i + 1}"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr>` +
      '<p:blipFill><a:blip r:embed="rId2"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>' +
      `<p:spPr><a:xfrm><a:off x="${i * 10000}" y="0"/><a:ext cx="10000" cy="10000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`,
  ).join('');
  return slidesDeck([
    {
      layout: 6,
      shapes: titleShape('Pictures') + pictures,
      rels: [['rId2', 'image', '../media/image1.png']],
      parts: { 'ppt/media/image1.png': { bytes: PIXEL, type: null } },
      defaults: { png: 'image/png' },
    },
  ]);
}
