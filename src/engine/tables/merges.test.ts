import { describe, expect, it } from 'vitest';
import { cloneElement, parseXml, serializeElement, type XmlElement } from '../xml/index.js';
import { listMerges, mergeOrigins, normalizeMerges, type PlacedRow } from './merges.js';
import { cellsOf } from './table-grid.js';

/** Rows of 3 cells from a compact notation: "." plain, "g2" gridSpan, "r3" rowSpan, "h" hMerge, "v" vMerge. */
function table(...rows: string[][]): XmlElement[] {
  const tc = (spec: string): string => {
    const attrs = spec
      .split('+')
      .map((part) =>
        part === '.'
          ? ''
          : part.startsWith('g')
            ? ` gridSpan="${part.slice(1)}"`
            : part.startsWith('r')
              ? ` rowSpan="${part.slice(1)}"`
              : part === 'h'
                ? ' hMerge="1"'
                : ' vMerge="1"',
      )
      .join('');
    return `<a:tc${attrs}><a:txBody><a:bodyPr/><a:p/></a:txBody></a:tc>`;
  };
  const xml = `<a:tbl xmlns:a="a">${rows.map((r) => `<a:tr h="1">${r.map(tc).join('')}</a:tr>`).join('')}</a:tbl>`;
  return parseXml(xml).root.children.filter((n): n is XmlElement => n.kind === 'element');
}

function notation(rows: readonly PlacedRow[]): string[][] {
  return rows.map((row) =>
    cellsOf(row.tr).map((tc) => {
      const a = tc.attrs;
      const parts = [
        a.gridSpan ? `g${a.gridSpan}` : '',
        a.rowSpan ? `r${a.rowSpan}` : '',
        a.hMerge ? 'h' : '',
        a.vMerge ? 'v' : '',
      ].filter(Boolean);
      return parts.length ? parts.join('+') : '.';
    }),
  );
}

const place = (rows: XmlElement[], sources: number[], copies: number[] = []): PlacedRow[] =>
  sources.map((source, k) =>
    copies.includes(k)
      ? { tr: cloneElement(rows[source]!), source, copy: true }
      : { tr: rows[source]!, source, copy: false },
  );

describe('normalizeMerges', () => {
  // Column 0 merged down all four rows; columns 1–2 merged across and down rows 1–2.
  const template = (): XmlElement[] =>
    table(['r4', '.', '.'], ['v', 'g2+r2', 'r2+h'], ['v', 'g2+v', 'h+v'], ['v', '.', '.']);

  it('leaves a table whose rows are all there as it was', () => {
    const rows = template();
    const before = rows.map((r) => serializeElement(r));
    normalizeMerges(place(rows, [0, 1, 2, 3]), 3);
    expect(rows.map((r) => serializeElement(r))).toEqual(before);
  });

  it('cut after row 1: spans end at the last row, the two-way merge stays a merge along its row', () => {
    const placed = place(template(), [0, 1]);
    normalizeMerges(placed, 3);
    expect(notation(placed)).toEqual([
      ['r2', '.', '.'],
      ['v', 'g2', 'h'],
    ]);
  });

  it('a continuation slide (header row, then rows 2–3): the first covered row shown starts the merge', () => {
    const placed = place(template(), [0, 2, 3]);
    normalizeMerges(placed, 3);
    expect(notation(placed)).toEqual([
      ['.', '.', '.'],
      ['r2', 'g2', 'h'],
      ['v', '.', '.'],
    ]);
    expect(listMerges(placed.map((p) => cellsOf(p.tr)))).toEqual([
      { row: 1, column: 0, rowSpan: 2, columnSpan: 1 },
      { row: 1, column: 1, rowSpan: 1, columnSpan: 2 },
    ]);
  });

  it('copies of the last row continue no vertical merge', () => {
    const placed = place(template(), [0, 1, 2, 3, 3, 3], [4, 5]);
    normalizeMerges(placed, 3);
    expect(notation(placed).slice(3)).toEqual([
      ['v', '.', '.'],
      ['.', '.', '.'],
      ['.', '.', '.'],
    ]);
    expect(notation(placed)[0]).toEqual(['r4', '.', '.']);
  });

  it('a span past the grid is cut at its edge, and a stray hMerge stands alone', () => {
    const placed = place(table(['.', 'g5', 'h'], ['h', '.', '.']), [0, 1]);
    normalizeMerges(placed, 3);
    expect(notation(placed)).toEqual([
      ['.', 'g2', 'h'],
      ['.', '.', '.'],
    ]);
  });

  it('every cell knows the cell that shows it', () => {
    const rows = template();
    const origins = mergeOrigins(rows.map(cellsOf), 3);
    expect([...origins]).toEqual([0, 1, 2, 0, 4, 4, 0, 4, 4, 0, 10, 11]);
  });
});
