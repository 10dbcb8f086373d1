/**
 * A deck on the layouts template's look (one-slide-deck.ts) whose one table uses a table style of its own: the
 * deck's ppt/tableStyles.xml defines "Deckforge Ledger" (accent-1 header row, tinted bands, a rule under every
 * cell), which no other owned template lists. Slide 0: "Title 1" ("Ledger") and "Ledger" (a header row and two
 * body rows of three columns: Item, Count, Price).
 */
import { strFromU8, strToU8 } from 'fflate';
import { slidesDeck, titleShape } from './one-slide-deck.js';
import { editPackage } from './package-edit.js';

export const LEDGER_STYLE_ID = '{7D4F0C2E-5B1A-4E8C-9A63-2F1D8B6E4C05}';
export const LEDGER_STYLE_NAME = 'Deckforge Ledger';

const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const text = (bold: boolean, colour: string): string =>
  `<a:tcTxStyle${bold ? ' b="on"' : ''}><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:schemeClr val="${colour}"/></a:tcTxStyle>`;
const fill = (colour: string): string => `<a:fill><a:solidFill>${colour}</a:solidFill></a:fill>`;
const STYLES =
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<a:tblStyleLst xmlns:a="${A}" def="${LEDGER_STYLE_ID}">` +
  `<a:tblStyle styleId="${LEDGER_STYLE_ID}" styleName="${LEDGER_STYLE_NAME}">` +
  `<a:wholeTbl>${text(false, 'dk1')}<a:tcStyle><a:tcBdr><a:bottom><a:ln w="12700" cmpd="sng"><a:solidFill><a:schemeClr val="accent1"/></a:solidFill></a:ln></a:bottom></a:tcBdr>` +
  `${fill('<a:schemeClr val="lt1"/>')}</a:tcStyle></a:wholeTbl>` +
  `<a:band1H><a:tcStyle><a:tcBdr/>${fill('<a:schemeClr val="accent1"><a:tint val="20000"/></a:schemeClr>')}</a:tcStyle></a:band1H>` +
  `<a:firstRow>${text(true, 'lt1')}<a:tcStyle><a:tcBdr/>${fill('<a:schemeClr val="accent1"/>')}</a:tcStyle></a:firstRow>` +
  '</a:tblStyle></a:tblStyleLst>';

const cell = (value: string): string =>
  `<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="1600" dirty="0"/><a:t>${value}</a:t></a:r></a:p></a:txBody><a:tcPr/></a:tc>`;
const ROWS = [
  ['Item', 'Count', 'Price'],
  ['Rope', '12', '4.50'],
  ['Anchor', '1', '89.00'],
];
const TABLE =
  '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="3" name="Ledger"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>' +
  '<p:xfrm><a:off x="457200" y="1600200"/><a:ext cx="8229600" cy="1112520"/></p:xfrm>' +
  `<a:graphic><a:graphicData uri="${A.replace('/main', '/table')}"><a:tbl><a:tblPr firstRow="1" bandRow="1"><a:tableStyleId>${LEDGER_STYLE_ID}</a:tableStyleId></a:tblPr>` +
  `<a:tblGrid>${'<a:gridCol w="2743200"/>'.repeat(3)}</a:tblGrid>` +
  ROWS.map((row) => `<a:tr h="370840">${row.map(cell).join('')}</a:tr>`).join('') +
  '</a:tbl></a:graphicData></a:graphic></p:graphicFrame>';

let bytes: Uint8Array | undefined;

/** The deck's bytes (a fresh copy each call). */
export function tableStyleDeck(): Uint8Array {
  bytes ??= editPackage(slidesDeck([{ shapes: titleShape('Ledger') + TABLE, layout: 6 }]), (files) => {
    const edit = (item: string, change: (xml: string) => string): void => {
      files[item] = strToU8(change(strFromU8(files[item]!)));
    };
    files['ppt/tableStyles.xml'] = strToU8(STYLES);
    edit('[Content_Types].xml', (xml) =>
      xml.replace(
        '</Types>',
        '<Override PartName="/ppt/tableStyles.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.tableStyles+xml"/></Types>',
      ),
    );
    edit('ppt/_rels/presentation.xml.rels', (xml) =>
      xml.replace(
        '</Relationships>',
        '<Relationship Id="rIdStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/tableStyles" Target="tableStyles.xml"/></Relationships>',
      ),
    );
  });
  return bytes.slice();
}
