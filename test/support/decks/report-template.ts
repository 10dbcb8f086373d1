/**
 * The `report.pptx` of docs/payload-tables.md, made from the project's sample template: slide 0 has the title
 * placeholder "Title 1" and "Table 1", 6 rows × 5 columns with a header row ("Region" | "Q1" | … | "Q4") and
 * figures in every body cell, so text a payload leaves in place is visible. Slides 1 and 2 are the sample's.
 */
import { readFileSync } from 'node:fs';
import { editPart } from './package-edit.js';

const SAMPLE = new Uint8Array(
  readFileSync(new URL('../../../examples/sample-template.pptx', import.meta.url)),
);

/** The template's text, row by row. */
export const REPORT_TABLE_TEXT: readonly (readonly string[])[] = [
  ['Region', 'Q1', 'Q2', 'Q3', 'Q4'],
  ['East', '1', '2', '3', '4'],
  ['West', '5', '6', '7', '8'],
  ['Central', '9', '10', '11', '12'],
  ['Overseas', '13', '14', '15', '16'],
  ['Other', '17', '18', '19', '20'],
];

const COLUMN_WIDTH = 1_600_000;
const ROW_HEIGHT = 370_840;

function cell(text: string): string {
  return (
    '<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="1400" dirty="0"/>' +
    `<a:t>${text}</a:t></a:r></a:p></a:txBody><a:tcPr/></a:tc>`
  );
}

function tableFrame(): string {
  const columns = REPORT_TABLE_TEXT[0]!.length;
  const grid = `<a:gridCol w="${COLUMN_WIDTH}"/>`.repeat(columns);
  const rows = REPORT_TABLE_TEXT.map(
    (row) => `<a:tr h="${ROW_HEIGHT}">${row.map(cell).join('')}</a:tr>`,
  ).join('');
  return (
    '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="5" name="Table 1"/>' +
    '<p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>' +
    `<p:xfrm><a:off x="571500" y="1600200"/><a:ext cx="${COLUMN_WIDTH * columns}" ` +
    `cy="${ROW_HEIGHT * REPORT_TABLE_TEXT.length}"/></p:xfrm>` +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table">' +
    '<a:tbl><a:tblPr firstRow="1" bandRow="1"><a:tableStyleId>{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}' +
    `</a:tableStyleId></a:tblPr><a:tblGrid>${grid}</a:tblGrid>${rows}</a:tbl></a:graphicData></a:graphic>` +
    '</p:graphicFrame>'
  );
}

/** The sample's title slide with its title renamed "Title 1" and its subtitle replaced by the table. */
export const REPORT_TEMPLATE: Uint8Array = editPart(SAMPLE, 'ppt/slides/slide1.xml', (xml) => {
  const subtitle = xml.indexOf('<p:sp>', xml.indexOf('name="Title"'));
  const end = xml.indexOf('</p:sp>', subtitle) + '</p:sp>'.length;
  const withTable = xml.slice(0, subtitle) + tableFrame() + xml.slice(end);
  return withTable.replace('name="Title"', 'name="Title 1"').replace('Quarterly review', 'Quarterly figures');
});
