/**
 * What a person sees of filled tables: LibreOffice renders the output (one soffice call per deck) and every
 * shown cell's text is on the page of its slide; a continued table shows its header and its next rows on each
 * page, every row once, in order, and nothing below the bottom of a page (the row-height estimate held).
 */
import { describe, expect, it } from 'vitest';
import { generate } from '../../../src/engine/index.js';
import { tablesDeck } from '../../support/decks/table-decks.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { renderToPdfText, renderToPdfWords } from '../../support/readers/render.js';
import { shownBy, tablesIn } from '../../support/readers/table-reading.js';
import { parts, run, slideParts } from '../../support/decks/deck.js';

const TIMEOUT = 240_000;
/** The template's "Table 1" is 126 pt from the top: a continued table keeps 36 pt (half an inch) free below. */
const BOTTOM_MARGIN_PT = 36;

describe('tables as rendered', () => {
  it(
    'merged tables grown by a row: each shown cell on its page, nothing from the cells a merge covers',
    async () => {
      // The owned table template's merged tables (slides 2-4), each filled on a page of its own.
      const template = tablesDeck();
      const all = parts(template);
      const slides = slideParts(template)
        .slice(2)
        .map((part, position) => {
          const index = position + 2;
          const table = tablesIn(all.get(part)!)[0]!;
          const shown = shownBy(table);
          const last = table.rows[table.rows.length - 1]!;
          const content = Array.from({ length: table.rows.length + 1 }, (_, r) =>
            table.columnWidths.map((_w, c) => {
              // The added row copies the last one, merges along the row included.
              const isShown = shown[r] ? shown[r][c]![0] === r && shown[r][c]![1] === c : !last[c]!.hMerge;
              // Covered cells get text too: it must not be drawn.
              return isShown ? `S${index}R${r}C${c}` : `hidden${index}x${r}x${c}`;
            }),
          );
          return { index, position, name: table.name, content };
        });
      const result = run(template, {
        slides: slides.map(({ index, name, content }) => ({
          slide_index: index,
          shapes: [{ name, content }],
        })),
      });
      await expectValidPptx(result.bytes, template);
      const pages = await renderToPdfText(result.bytes);
      expect(pages).toHaveLength(3);
      slides.forEach(({ index, position, content }) => {
        const words = new Set(pages[position]!.split(/\s+/));
        for (const text of content.flat()) {
          if (text.startsWith('hidden')) expect(words.has(text), `${text} is not drawn`).toBe(false);
          else expect(words.has(text), `${text} on page ${position + 1}`).toBe(true);
        }
        for (const other of slides.filter((s) => s.index !== index))
          expect(words.has(`S${other.index}R0C0`)).toBe(false);
      });
    },
    TIMEOUT,
  );

  it(
    'a long table with wrapping text continued on copies of its slide: header on each page, rows in order, none cut off',
    async () => {
      const template = tablesDeck();
      const words =
        'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda omicron sigma omega'.split(' ');
      const phrase = (r: number, n: number): string =>
        Array.from({ length: n }, (_, k) => words[(r * 7 + k * 3) % words.length]).join(' ');
      const content = [
        ['Head', 'Name', 'Value', 'Notes', 'More'],
        ...Array.from({ length: 60 }, (_, i) => {
          const r = i + 1;
          return [
            `R${r}`,
            phrase(r, 1 + (r % 9)),
            String(r * 1000.5),
            phrase(r + 3, r % 5),
            r % 7 === 0 ? phrase(r, 14) : 'x',
          ];
        }),
      ];
      const result = generate({
        payload: {
          presentation: {
            template: 't.pptx',
            slides: [
              {
                slide_index: 0,
                shapes: [
                  { name: 'Table 1', content, overflow: 'continue' },
                  { name: 'Table 2', remove: true },
                  // Only the table's words on the page: the title goes.
                  { name: 'Title 1', remove: true },
                ],
              },
            ],
          },
        },
        files: new Map([['t.pptx', template]]),
      });
      await expectValidPptx(result.bytes, template);
      const pages = await renderToPdfWords(result.bytes);
      expect(result.slideCount).toBeGreaterThan(3);
      expect(pages).toHaveLength(result.slideCount);
      const seen: string[] = [];
      pages.forEach((page, p) => {
        const texts = page.words.map((w) => w.text);
        expect(texts[0], `page ${p + 1} starts with the header row`).toBe('Head');
        const rows = texts.filter((t) => /^R\d+$/.test(t));
        expect(rows.length, `page ${p + 1} shows rows`).toBeGreaterThan(0);
        seen.push(...rows);
        // The table stops above the bottom margin it keeps (as much room as above it, at most half an inch).
        for (const word of page.words)
          expect(word.yMax, `"${word.text}" on page ${p + 1} is above the bottom margin`).toBeLessThanOrEqual(
            page.height - BOTTOM_MARGIN_PT,
          );
      });
      expect(seen).toEqual(content.slice(1).map((row) => row[0]));
    },
    TIMEOUT,
  );
});
