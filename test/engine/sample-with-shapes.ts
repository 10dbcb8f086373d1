/**
 * The project's own sample template (examples/sample-template.pptx) with shapes added to its "Title and
 * Content" slide (slide index 1), so that table and picture scenarios run on a template the project owns:
 * - "Table 1": a one-column table with a header row, in the lower half of the slide;
 * - "Badge": a rounded-rectangle auto-shape twice as wide as it is tall, with text.
 */
import { editPart } from '../support/decks/package-edit.js';
import { SAMPLE } from '../support/decks/deck.js';

/** Badge's frame (EMU): 2:1, so a 4:1 image is wider than it and a 1:4 image taller. */
export const BADGE = { x: 1_000_000, y: 2_000_000, cx: 4_000_000, cy: 2_000_000 };

const cell = (text: string): string =>
  '<a:tc><a:txBody><a:bodyPr/><a:lstStyle/>' +
  `<a:p><a:r><a:rPr lang="en-US" sz="1400"/><a:t>${text}</a:t></a:r></a:p></a:txBody><a:tcPr/></a:tc>`;

const table =
  '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="10" name="Table 1"/>' +
  '<p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>' +
  '<p:xfrm><a:off x="838200" y="3429000"/><a:ext cx="6096000" cy="741680"/></p:xfrm>' +
  '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table">' +
  '<a:tbl><a:tblPr firstRow="1" bandRow="1"/><a:tblGrid><a:gridCol w="6096000"/></a:tblGrid>' +
  `<a:tr h="370840">${cell('Region')}</a:tr><a:tr h="370840">${cell('North')}</a:tr>` +
  '</a:tbl></a:graphicData></a:graphic></p:graphicFrame>';

const badge =
  '<p:sp><p:nvSpPr><p:cNvPr id="11" name="Badge"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr>' +
  `<p:spPr><a:xfrm><a:off x="${BADGE.x}" y="${BADGE.y}"/><a:ext cx="${BADGE.cx}" cy="${BADGE.cy}"/></a:xfrm>` +
  '<a:prstGeom prst="roundRect"><a:avLst/></a:prstGeom><a:solidFill><a:schemeClr val="accent2"/></a:solidFill></p:spPr>' +
  '<p:txBody><a:bodyPr anchor="ctr"/><a:lstStyle/><a:p><a:pPr algn="ctr"/><a:r><a:rPr lang="en-US"/>' +
  '<a:t>New</a:t></a:r></a:p></p:txBody></p:sp>';

export const SAMPLE_WITH_SHAPES = editPart(SAMPLE, 'ppt/slides/slide2.xml', (xml) =>
  xml.replace('</p:spTree>', `${table}${badge}</p:spTree>`),
);
