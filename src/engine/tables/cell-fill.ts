/**
 * Writing one table cell (`a:tc`): its text through the text writer (text/fill-text.ts: a string replaces all
 * the cell's paragraphs, paragraph i keeping the template cell's paragraph i formatting, also from a:endParaRPr
 * in a cell that had no run), then `cell_properties` (docs/payload-tables.md): a fill and a vertical anchor on
 * a:tcPr, and text properties over the whole cell.
 */
import type { ParagraphProps, RunProps, TableCell, TextContent } from '../payload/model.js';
import { fillText, type FillTextContext } from '../text/fill-text.js';
import { applyParagraphProps } from '../text/paragraph-properties.js';
import { FILL_CHOICE, setSolidFill } from '../shapes/solid-fill.js';
import { applyRunProps } from '../text/run-properties.js';
import { child, childElements, element, insertInOrder, type XmlElement } from '../xml/index.js';

/** CT_TableCell: a:txBody?, a:tcPr?, a:extLst?. */
const CELL_ORDER = ['a:txBody', 'a:tcPr', 'a:extLst'];

/** CT_TableCellProperties child order (ECMA-376 Part 1; docs/powerpoint-rules.md "Table grid and merges"). */
const CELL_PROPERTIES_ORDER = [
  'a:lnL',
  'a:lnR',
  'a:lnT',
  'a:lnB',
  'a:lnTlToBr',
  'a:lnBlToTr',
  'a:cell3D',
  ...FILL_CHOICE,
  'a:headers',
  'a:extLst',
];

/** What a paragraph holds besides its properties: the runs cell text properties apply to. */
const PARAGRAPH_RUN_CHILDREN = new Set(['a:r', 'a:br', 'a:fld']);

export function writeCell(tc: XmlElement, cell: TableCell, ctx: FillTextContext): void {
  if (cell.text) {
    fillText(textBody(tc), withCellFormatting(cell.text, cell.runProps, cell.paragraphProps), ctx);
  } else if (cell.runProps || cell.paragraphProps) {
    formatExistingText(textBody(tc), cell.runProps, cell.paragraphProps, ctx);
  }
  // What a paragraph without runs will look like once someone types into it: the cell's text properties too.
  if (cell.runProps) {
    const { hyperlink: _link, ...endProps } = cell.runProps;
    for (const p of childElements(textBody(tc), 'a:p')) {
      const end = child(p, 'a:endParaRPr');
      if (end) applyRunProps(end, endProps, ctx);
    }
  }
  if (cell.fillColor !== undefined) setSolidFill(cellProperties(tc), cell.fillColor, CELL_PROPERTIES_ORDER);
  if (cell.verticalAlign !== undefined) cellProperties(tc).attrs.anchor = cell.verticalAlign;
}

/** Empties a cell, keeping its first paragraph's formatting (a row added by copying the last one). */
export function clearCell(tc: XmlElement, ctx: FillTextContext): void {
  const body = child(tc, 'a:txBody');
  if (!body) return;
  const paragraphs = childElements(body, 'a:p');
  if (
    paragraphs.length === 1 &&
    !childElements(paragraphs[0]!).some((n) => PARAGRAPH_RUN_CHILDREN.has(n.name))
  )
    return;
  fillText(body, EMPTY, ctx);
}

const EMPTY: TextContent = { kind: 'text', fromRuns: false, paragraphs: [{ props: {}, runs: [] }] };

/** The cell's text properties under each run's and paragraph's own (a run's own setting wins). */
function withCellFormatting(
  text: TextContent,
  runProps: RunProps | undefined,
  paragraphProps: ParagraphProps | undefined,
): TextContent {
  if (!runProps && !paragraphProps) return text;
  return {
    ...text,
    paragraphs: text.paragraphs.map((p) => ({
      props: paragraphProps ? { ...paragraphProps, ...p.props } : p.props,
      runs: p.runs.map((r) => (runProps ? { text: r.text, props: { ...runProps, ...r.props } } : r)),
    })),
  };
}

/** `cell_properties` without text: the template's text stays, formatted anew. */
function formatExistingText(
  body: XmlElement,
  runProps: RunProps | undefined,
  paragraphProps: ParagraphProps | undefined,
  ctx: FillTextContext,
): void {
  for (const p of childElements(body, 'a:p')) {
    if (paragraphProps) {
      const pPr = child(p, 'a:pPr') ?? element('a:pPr');
      applyParagraphProps(pPr, paragraphProps);
      if (!p.children.includes(pPr) && (Object.keys(pPr.attrs).length > 0 || pPr.children.length > 0))
        p.children.unshift(pPr);
    }
    if (!runProps) continue;
    for (const run of childElements(p)) {
      if (!PARAGRAPH_RUN_CHILDREN.has(run.name)) continue;
      let rPr = child(run, 'a:rPr');
      if (!rPr) {
        rPr = element('a:rPr');
        run.children.unshift(rPr);
      }
      applyRunProps(rPr, runProps, ctx);
    }
  }
}

/**
 * The cell's a:txBody; a cell written without one gets PowerPoint's minimal body (docs/powerpoint-rules.md
 * "Table grid and merges").
 */
function textBody(tc: XmlElement): XmlElement {
  const existing = child(tc, 'a:txBody');
  if (existing) return existing;
  const body = element('a:txBody', {}, [element('a:bodyPr'), element('a:lstStyle'), element('a:p')]);
  insertInOrder(tc, body, CELL_ORDER);
  return body;
}

function cellProperties(tc: XmlElement): XmlElement {
  const existing = child(tc, 'a:tcPr');
  if (existing) return existing;
  const tcPr = element('a:tcPr');
  insertInOrder(tc, tcPr, CELL_ORDER);
  return tcPr;
}
