/**
 * Every table of every valid corpus deck (the manifest's `slides_with_tables`), filled three ways: grown by two
 * rows, shrunk to its first row, and with `null` holes. One output deck per corpus deck holds the three
 * variants as separate slides and is validated once (package invariants, no Open XML SDK error its template does
 * not have). Read back: each shown cell has the payload's text (or, under a hole, the template's), merges are
 * well formed, the frame is as tall as its rows, style, banding flags, column widths and position are the
 * template's.
 */
import { expect, it } from 'vitest';
import { generate, inspect } from '../../../src/engine/index.js';
import { corpusFiles, describeCorpus, readCorpus } from '../../support/corpus/corpus.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { mergeProblems, shownBy, tablesIn, type ReadTable } from '../../support/readers/table-reading.js';
import { parts, slideParts } from '../../support/decks/deck.js';

type Cell = string | null;
type Variant = 'grown' | 'shrunk' | 'holes';
const VARIANTS: Variant[] = ['grown', 'shrunk', 'holes'];

const decks = corpusFiles().filter((d) => !d.strict && d.slidesWithTables > 0);
const TIMEOUT = 300_000;

describeCorpus('tables of the corpus', () => {
  it('covers the 26 decks that have tables', () => {
    expect(decks).toHaveLength(26);
  });

  it.each(decks.map((d) => [d.file, d] as const))(
    '%s: every table grown, shrunk and with holes',
    async (_name, deck) => {
      const template = readCorpus(deck);
      const templateParts = parts(template);
      const templateSlides = slideParts(template);
      // Tables by slide, as the template has them (ids unique on their slide, so shapeId finds them).
      const targets = inspect(template).slides.flatMap((slide) => {
        const read = tablesIn(templateParts.get(templateSlides[slide.index]!)!);
        const tables = slide.shapes
          .filter((s) => s.kind === 'table' && slide.shapes.filter((o) => o.id === s.id).length === 1)
          .map((s) => read.find((t) => t.id === s.id)!);
        return tables.length > 0 ? [{ index: slide.index, tables }] : [];
      });
      expect(targets).toHaveLength(deck.slidesWithTables);

      const plan = targets.flatMap((target) => VARIANTS.map((variant) => ({ ...target, variant })));
      const payloads = plan.map(({ tables, variant }, position) =>
        tables.map((table) => contentFor(table, variant, `s${position}t${table.id}`)),
      );
      const result = generate({
        payload: {
          presentation: {
            template: 't.pptx',
            slides: plan.map(({ index, tables }, position) => ({
              slide_index: index,
              shapes: tables.map((table, t) => ({ shapeId: table.id, content: payloads[position]![t] })),
            })),
          },
        },
        files: new Map([['t.pptx', template]]),
      });
      expect(result.slideCount).toBe(plan.length);

      const outputParts = parts(result.bytes);
      slideParts(result.bytes).forEach((part, position) => {
        const { tables, variant } = plan[position]!;
        const written = tablesIn(outputParts.get(part)!);
        tables.forEach((before, t) => {
          const after = written.find((w) => w.id === before.id)!;
          const where = `${deck.file} slide ${position} (${variant}), table "${before.name}"`;
          expectFilled(before, after, payloads[position]![t]!, where);
        });
      });
      await expectValidPptx(result.bytes, template);
    },
    TIMEOUT,
  );
});

/**
 * Cells a template merge covers get "" (the text goes to the merge's first cell), the others a marker naming
 * slide, table, row and column; `holes` leaves every third first-of-merge cell `null`.
 */
function contentFor(table: ReadTable, variant: Variant, prefix: string): Cell[][] {
  const rows = variant === 'grown' ? table.rows.length + 2 : variant === 'shrunk' ? 1 : table.rows.length;
  const shown = shownBy(table);
  return Array.from({ length: rows }, (_, r) =>
    table.columnWidths.map((_w, c) => {
      const [or, oc] = shown[r]?.[c] ?? [r, c];
      if (or !== r || oc !== c) return '';
      if (variant === 'holes' && (r + c) % 3 === 0) return null;
      return `${prefix}r${r}c${c}`;
    }),
  );
}

function expectFilled(before: ReadTable, after: ReadTable, content: Cell[][], where: string): void {
  expect(after.rows, `${where}: one row per payload row`).toHaveLength(content.length);
  expect(mergeProblems(after), `${where}: merges`).toEqual([]);
  expect(after.frameHeight, `${where}: frame height`).toBe(after.rowHeights.reduce((a, b) => a + b, 0));
  expect(after.tblPr, `${where}: style and banding flags`).toBe(before.tblPr);
  expect(after.columnWidths, `${where}: column widths`).toEqual(before.columnWidths);
  expect(after.frameTop, `${where}: position`).toBe(before.frameTop);
  after.rowHeights.forEach((h, r) =>
    expect(h, `${where}: row ${r} height`).toBe(before.rowHeights[Math.min(r, before.rowHeights.length - 1)]),
  );
  const shown = shownBy(after);
  after.rows.forEach((row, r) =>
    row.forEach((tc, c) => {
      const [or, oc] = shown[r]![c]!;
      if (or !== r || oc !== c) return;
      expect(tc.text, `${where}: cell at row ${r}, column ${c}`).toBe(
        expectedText(after, shown, content, before, r, c),
      );
    }),
  );
}

/** The rule of docs/payload-tables.md: the group's first cell's text, else the first later cell with text. */
function expectedText(
  after: ReadTable,
  shown: [number, number][][],
  content: Cell[][],
  before: ReadTable,
  r: number,
  c: number,
): string {
  const group: Cell[] = [];
  after.rows.forEach((row, rr) =>
    row.forEach((_tc, cc) => {
      const [or, oc] = shown[rr]![cc]!;
      if (or === r && oc === c) group.push(content[rr]?.[cc] ?? null);
    }),
  );
  const first = group[0] ?? null;
  if (first) return first;
  const later = group.find((text) => text);
  if (later) return later;
  return first === null ? (before.rows[r]?.[c]?.text ?? '') : '';
}
