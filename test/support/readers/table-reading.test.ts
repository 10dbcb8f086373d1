import { describe, expect, it } from 'vitest';
import { mergeProblems, shownBy, tablesIn } from './table-reading.js';

const frame = (rows: string): string =>
  '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="T &amp; 1"/></p:nvGraphicFramePr>' +
  '<p:xfrm><a:off x="10" y="20"/><a:ext cx="300" cy="200"/></p:xfrm><a:graphic><a:graphicData><a:tbl>' +
  '<a:tblPr firstRow="1"/><a:tblGrid><a:gridCol w="100"/><a:gridCol w="100"/></a:tblGrid>' +
  `${rows}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
const cell = (attrs: string, text: string): string =>
  `<a:tc${attrs}><a:txBody><a:bodyPr/><a:p><a:r><a:rPr/><a:t>${text}</a:t></a:r></a:p><a:p/></a:txBody></a:tc>`;

describe('reading tables back', () => {
  it('reads names, geometry, cells and their text', () => {
    const [table] = tablesIn(
      frame(`<a:tr h="50">${cell(' gridSpan="2"', 'a &lt; b')}<a:tc hMerge="1"/></a:tr>`),
    );
    expect(table).toMatchObject({
      name: 'T & 1',
      id: 4,
      frameTop: 20,
      frameHeight: 200,
      columnWidths: [100, 100],
    });
    expect(table!.rowHeights).toEqual([50]);
    expect(table!.rows[0]!.map((c) => [c.text, c.gridSpan, c.hMerge])).toEqual([
      ['a < b\n', 2, false],
      ['', 1, true],
    ]);
    expect(shownBy(table!)).toEqual([
      [
        [0, 0],
        [0, 0],
      ],
    ]);
    expect(mergeProblems(table!)).toEqual([]);
  });

  it('finds merges that break the rules', () => {
    const dangling = tablesIn(
      frame(
        `<a:tr h="1">${cell('', 'a')}${cell('', 'b')}</a:tr><a:tr h="1">${cell(' vMerge="1"', '')}${cell('', 'c')}</a:tr>`,
      ),
    )[0]!;
    expect(mergeProblems(dangling)).toEqual([
      'cell at row 1, column 0: hMerge=false vMerge=true, expected false/false',
    ]);
    const past = tablesIn(frame(`<a:tr h="1">${cell(' rowSpan="2"', 'a')}${cell('', 'b')}</a:tr>`))[0]!;
    expect(mergeProblems(past)).toEqual(['merge at row 0, column 0 (2×1) runs past the table']);
    const short = tablesIn(frame(`<a:tr h="1">${cell('', 'a')}</a:tr>`))[0]!;
    expect(mergeProblems(short)).toEqual(['row 0 has 1 cells, the grid 2']);
  });
});
