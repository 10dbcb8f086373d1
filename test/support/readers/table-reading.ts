/**
 * Reads the tables of a slide part back for assertions, independently of src/engine: every graphic frame
 * holding an a:tbl, its frame height, its rows' heights, and each cell's merge attributes and text.
 * A small string reader is enough: DrawingML tables do not nest, and the checks only need these few things.
 */

export interface ReadCell {
  /** Paragraphs joined with `\n`. */
  text: string;
  gridSpan: number;
  rowSpan: number;
  hMerge: boolean;
  vMerge: boolean;
  /** The cell's XML, for formatting assertions. */
  xml: string;
}

export interface ReadTable {
  name: string;
  id: number;
  /** p:xfrm/a:ext/@cy of the frame. */
  frameHeight: number;
  /** p:xfrm/a:off/@y of the frame. */
  frameTop: number;
  columnWidths: number[];
  rowHeights: number[];
  rows: ReadCell[][];
  /** a:tblPr as written (style id, banding flags). */
  tblPr: string;
  xml: string;
}

const FRAME = /<p:graphicFrame>([\s\S]*?)<\/p:graphicFrame>/g;

export function tablesIn(slideXml: string): ReadTable[] {
  const tables: ReadTable[] = [];
  for (const [, frame = ''] of slideXml.matchAll(FRAME)) {
    const tbl = /<a:tbl>([\s\S]*)<\/a:tbl>/.exec(frame)?.[1];
    if (tbl === undefined) continue;
    const cNvPr = /<p:cNvPr ([^>]*?)\/?>/.exec(frame)?.[1] ?? '';
    const xfrm = /<p:xfrm[^>]*>([\s\S]*?)<\/p:xfrm>/.exec(frame)?.[1] ?? '';
    const rows = [...tbl.matchAll(/<a:tr( [^>]*)?>([\s\S]*?)<\/a:tr>/g)];
    tables.push({
      name: decode(attr(cNvPr, 'name') ?? ''),
      id: Number(attr(cNvPr, 'id')),
      frameHeight: Number(attr(/<a:ext ([^>]*)\/>/.exec(xfrm)?.[1] ?? '', 'cy')),
      frameTop: Number(attr(/<a:off ([^>]*)\/>/.exec(xfrm)?.[1] ?? '', 'y')),
      columnWidths: [...tbl.matchAll(/<a:gridCol ([^>]*?)\/?>/g)].map((m) => Number(attr(m[1]!, 'w'))),
      rowHeights: rows.map((m) => Number(attr(m[1] ?? '', 'h'))),
      rows: rows.map((m) =>
        [...(m[2] ?? '').matchAll(/<a:tc( [^>]*?)?(?:\/>|>([\s\S]*?)<\/a:tc>)/g)].map(cell),
      ),
      tblPr: /<a:tblPr[\s\S]*?(?:\/>|<\/a:tblPr>)/.exec(tbl)?.[0] ?? '',
      xml: tbl,
    });
  }
  return tables;
}

function cell(match: RegExpMatchArray): ReadCell {
  const attrs = match[1] ?? '';
  const body = match[2] ?? '';
  const on = (name: string): boolean => ['1', 'true'].includes(attr(attrs, name) ?? '');
  return {
    text: paragraphTexts(body).join('\n'),
    gridSpan: Number(attr(attrs, 'gridSpan') ?? 1),
    rowSpan: Number(attr(attrs, 'rowSpan') ?? 1),
    hMerge: on('hMerge'),
    vMerge: on('vMerge'),
    xml: match[0],
  };
}

/** Text of each a:p (a:pPr does not match: the name must end at a space, `>` or `/>`). */
export function paragraphTexts(xml: string): string[] {
  return [...xml.matchAll(/<a:p(?: [^>]*?)?(?:\/>|>([\s\S]*?)<\/a:p>)/g)].map((m) =>
    [...(m[1] ?? '').matchAll(/<a:t>([^<]*)<\/a:t>|<a:t\/>/g)].map((t) => decode(t[1] ?? '')).join(''),
  );
}

function attr(attrs: string, name: string): string | undefined {
  return new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attrs)?.[1];
}

function decode(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_m, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[e] ?? '';
  });
}

/**
 * Every way the table's merges break the rules (docs/powerpoint-rules.md "Table grid and merges"): each row has
 * one cell per grid column; a span stays inside the grid; the cells a merge covers carry hMerge (right of its
 * first column) and vMerge (below its first row); no other cell does.
 */
export function mergeProblems(table: ReadTable): string[] {
  const problems: string[] = [];
  const columns = table.columnWidths.length;
  const covered = new Map<string, { h: boolean; v: boolean }>();
  table.rows.forEach((row, r) => {
    if (row.length !== columns) problems.push(`row ${r} has ${row.length} cells, the grid ${columns}`);
    row.forEach((tc, c) => {
      if (tc.hMerge || tc.vMerge || (tc.gridSpan === 1 && tc.rowSpan === 1)) return;
      if (r + tc.rowSpan > table.rows.length || c + tc.gridSpan > columns)
        problems.push(`merge at row ${r}, column ${c} (${tc.rowSpan}×${tc.gridSpan}) runs past the table`);
      for (let rr = r; rr < r + tc.rowSpan; rr++)
        for (let cc = c; cc < c + tc.gridSpan; cc++)
          if (rr !== r || cc !== c) covered.set(`${rr},${cc}`, { h: cc > c, v: rr > r });
    });
  });
  table.rows.forEach((row, r) =>
    row.forEach((tc, c) => {
      const need = covered.get(`${r},${c}`) ?? { h: false, v: false };
      if (tc.hMerge !== need.h || tc.vMerge !== need.v)
        problems.push(
          `cell at row ${r}, column ${c}: hMerge=${tc.hMerge} vMerge=${tc.vMerge}, expected ${need.h}/${need.v}`,
        );
    }),
  );
  return problems;
}

/** For each cell, the [row, column] of the cell that shows it: itself, or the first cell of its merge. */
export function shownBy(table: ReadTable): [number, number][][] {
  const origin = table.rows.map((row) => row.map((): [number, number] => [0, 0]));
  table.rows.forEach((row, r) =>
    row.forEach((tc, c) => {
      if (tc.hMerge && c > 0) origin[r]![c] = origin[r]![c - 1]!;
      else if (tc.vMerge && r > 0) origin[r]![c] = origin[r - 1]![c]!;
      else origin[r]![c] = [r, c];
    }),
  );
  return origin;
}
