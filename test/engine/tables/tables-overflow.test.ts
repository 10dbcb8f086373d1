/**
 * Tables longer than their slide (docs/payload-tables.md): a warning by default; with `"overflow": "continue"`
 * the rows go on copies of the slide right after it, each repeating the header rows and filled as the payload
 * asks. The copies are ordinary output slides: counted, in order, with their notes and tags.
 */
import { describe, expect, it } from 'vitest';
import { generate, inspect, type GenerateResult } from '../../../src/engine/index.js';
import { engineErrorOf } from '../../support/checks/engine-error.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../../support/decks/layouts-template.js';
import { TABLE_STYLE_ID, tablesDeck } from '../../support/decks/table-decks.js';
import { mergeProblems, tablesIn, type ReadTable } from '../../support/readers/table-reading.js';
import { parts, run, slideParts } from '../../support/decks/deck.js';
import { groupTable } from './table-templates.js';

// The owned table template (table-decks.ts): slide 0 has "Title 1", "Table 1" (6 × 5, a header row) and
// "Table 2" near the bottom; slide 3 "Merged down".
const CASE4 = tablesDeck();
const LARGE = CASE4;
const LAYOUTS = layoutsTemplate();
const CONTENT = 'presentation.slides[0].shapes[1].content';

function tables(result: GenerateResult): Map<string, ReadTable>[] {
  const all = parts(result.bytes);
  return slideParts(result.bytes).map((part) => new Map(tablesIn(all.get(part)!).map((t) => [t.name, t])));
}

const firstColumn = (table: ReadTable | undefined): string[] => table?.rows.map((row) => row[0]!.text) ?? [];

describe('"overflow": "continue"', () => {
  const rows = [
    ['Theme', 'Major', 'Minor'],
    ...Array.from({ length: 119 }, (_, r) => [`Row ${r + 1}`, `M${r + 1}`, `m${r + 1}`]),
  ];
  const result = run(LARGE, {
    tags: [{ key: 'deck', value: 'Fonts deck' }],
    slides: [
      {
        slide_index: 0,
        shapes: [
          { name: 'Title 1', content: 'Fonts of {{deck}}' },
          { name: 'Table 1', content: rows, overflow: 'continue', unspecified_cells: 'clear' },
        ],
        notes: 'Read slowly',
      },
      {
        slide_index: 0,
        shapes: [
          { name: 'Title 1', content: 'After the table' },
          { name: 'Table 1', content: [['x']], unspecified_cells: 'keep' },
        ],
      },
    ],
  });
  const slides = tables(result);
  const inspected = inspect(result.bytes);

  it('carries the rows that do not fit onto copies right after the slide, each repeating the header row', async () => {
    expect(slides.length).toBeGreaterThan(4);
    expect(result.slideCount).toBe(slides.length);
    const copies = slides.slice(0, -1);
    for (const slide of copies) expect(firstColumn(slide.get('Table 1'))[0]).toBe('Theme');
    // Every body row exactly once, in order, across the slides.
    expect(copies.flatMap((slide) => firstColumn(slide.get('Table 1')).slice(1))).toEqual(
      rows.slice(1).map((row) => row[0]),
    );
    for (const slide of copies) expect(mergeProblems(slide.get('Table 1')!)).toEqual([]);
    expect(firstColumn(slides[slides.length - 1]!.get('Table 1'))).toEqual(['x']);
    await expectValidPptx(result.bytes, LARGE);
  });

  it('fills each copy as the payload asks: other shapes, notes and tags; the next slide comes after the copies', () => {
    const titles = inspected.slides.map((s) => s.shapes.find((shape) => shape.name === 'Title 1')!.text);
    expect(titles).toEqual([
      ...Array<string>(slides.length - 1).fill('Fonts of Fonts deck'),
      'After the table',
    ]);
    expect(inspected.slides.slice(0, -1).map((s) => s.notes)).toEqual(
      Array<string>(slides.length - 1).fill('Read slowly'),
    );
    expect(new Set(inspected.slides.map((s) => s.id)).size).toBe(slides.length);
  });

  it('says how many slides the table took', () => {
    expect(result.warnings).toEqual([
      {
        path: CONTENT,
        message: `table "Table 1" took ${slides.length - 1} slides: it continued on ${slides.length - 2} copies of the slide`,
      },
    ]);
  });

  it('header_rows repeats that many rows', async () => {
    const twoHeaders = run(LARGE, {
      slides: [
        {
          slide_index: 0,
          shapes: [{ name: 'Table 1', content: rows, overflow: 'continue', header_rows: 2 }],
        },
      ],
    });
    const copies = tables(twoHeaders);
    expect(copies.length).toBeGreaterThan(4);
    for (const slide of copies)
      expect(firstColumn(slide.get('Table 1')).slice(0, 2)).toEqual(['Theme', 'Row 1']);
    expect(copies.flatMap((slide) => firstColumn(slide.get('Table 1')).slice(2))).toEqual(
      rows.slice(2).map((row) => row[0]),
    );
    await expectValidPptx(twoHeaders.bytes, LARGE);
  });
});

describe('more continuations', () => {
  it('two long tables on one slide: copies show both until one runs out, which is then left off', async () => {
    const long = Array.from({ length: 30 }, (_, r) => [`long ${r}`]);
    const short = Array.from({ length: 6 }, (_, r) => [`short ${r}`]);
    const result = run(CASE4, {
      slides: [
        {
          slide_index: 0,
          shapes: [
            { name: 'Table 1', content: long, overflow: 'continue', unspecified_cells: 'keep' },
            { name: 'Table 2', content: short, overflow: 'continue', unspecified_cells: 'keep' },
          ],
        },
      ],
    });
    const slides = tables(result);
    const withShort = slides.filter((s) => s.has('Table 2'));
    expect(withShort.length).toBeLessThan(slides.length);
    expect(slides.slice(0, withShort.length)).toEqual(withShort);
    // Table 1's first row is its header (the first-row flag is set), Table 2's likewise.
    expect(slides.flatMap((s) => firstColumn(s.get('Table 1')).slice(1))).toEqual(
      long.slice(1).map((r) => r[0]),
    );
    expect(withShort.flatMap((s) => firstColumn(s.get('Table 2')).slice(1))).toEqual(
      short.slice(1).map((r) => r[0]),
    );
    expect(result.warnings.map((w) => w.path)).toEqual([
      'presentation.slides[0].shapes[0].content',
      'presentation.slides[0].shapes[1].content',
    ]);
    await expectValidPptx(result.bytes, CASE4);
  });

  it("a merged table continued: every copy's merges are well formed and each row is shown once", async () => {
    const merged = CASE4;
    // Column 0 merges all six template rows, column 1 rows 0–2 and 3–5; no header row.
    const content = Array.from({ length: 40 }, (_, r) => [`m${r}`, `n${r}`, `c${r}`, `d${r}`]);
    const result = run(merged, {
      slides: [{ slide_index: 3, shapes: [{ name: 'Merged down', content, overflow: 'continue' }] }],
    });
    const slides = tables(result);
    expect(slides.length).toBeGreaterThan(2);
    for (const slide of slides) expect(mergeProblems(slide.get('Merged down')!)).toEqual([]);
    // Column 2 is never merged: its cells list every row once, in order.
    expect(slides.flatMap((s) => s.get('Merged down')!.rows.map((row) => row[2]!.text))).toEqual(
      content.map((row) => row[2]),
    );
    await expectValidPptx(result.bytes, merged);
  });

  it('a table in a group that doubles its height takes more slides than in a group at scale 1', async () => {
    const content = Array.from({ length: 40 }, (_, r) => [`row ${r}`]);
    const slidesFor = async (scaleY: number): Promise<number> => {
      const template = groupTable(CASE4, 1, scaleY);
      const result = run(template, {
        slides: [
          {
            slide_index: 0,
            shapes: [
              { name: 'Table 1', content, overflow: 'continue' },
              { name: 'Table 2', remove: true },
            ],
          },
        ],
      });
      const slides = tables(result);
      expect(slides.flatMap((s) => firstColumn(s.get('Table 1')).slice(1))).toEqual(
        content.slice(1).map((r) => r[0]),
      );
      await expectValidPptx(result.bytes, template);
      return slides.length;
    };
    const plain = await slidesFor(1);
    const doubled = await slidesFor(2);
    expect(doubled).toBeGreaterThan(plain * 1.8);
  });

  it("continues a table on a slide of another template (template_list), with that template's look", async () => {
    const content = Array.from({ length: 40 }, (_, r) => [`row ${r}`, r]);
    const result = generate({
      payload: {
        presentation: {
          template_list: [
            { template_id: 'a', template: 'layouts.pptx' },
            { template_id: 'b', template: 'tables.pptx' },
          ],
          slides: [
            { template_id: 'a', slide_index: 0 },
            {
              template_id: 'b',
              slide_index: 0,
              shapes: [{ name: 'Table 1', content, overflow: 'continue' }],
            },
          ],
        },
      },
      files: new Map([
        ['layouts.pptx', LAYOUTS],
        ['tables.pptx', CASE4],
      ]),
    });
    const slides = tables(result);
    expect(slides.length).toBeGreaterThan(2);
    expect(result.slideCount).toBe(slides.length);
    expect(slides.slice(1).flatMap((s) => firstColumn(s.get('Table 1')).slice(1))).toEqual(
      content.slice(1).map((r) => r[0]),
    );
    for (const slide of slides.slice(1)) expect(slide.get('Table 1')!.tblPr).toContain(TABLE_STYLE_ID);
    await expectValidPptx(result.bytes, [LAYOUTS, CASE4]);
  });

  it('a deck that would pass the slide limit with its continuation slides is refused, naming the table', () => {
    const content = Array.from({ length: 200 }, (_, r) => [`row ${r}`]);
    const error = engineErrorOf(() =>
      generate({
        payload: {
          presentation: {
            template: 't.pptx',
            slides: [
              { slide_index: 0, shapes: [{ name: 'Table 1', content, overflow: 'continue' }] },
              { slide_index: 0 },
            ],
          },
        },
        files: new Map([['t.pptx', CASE4]]),
        maxSlides: 5,
      }),
    );
    expect(error.code).toBe('TOO_MANY_SLIDES');
    expect(error.path).toBe('presentation.slides[0].shapes[0].content');
    expect(error.message).toContain('table "Table 1" continues on more slides than a deck may have');
    expect(error.message).toContain('more than 5 slides');
  });
});

describe('"overflow": "warn" (the default)', () => {
  it('keeps every row on the slide and names the table that runs past its bottom', async () => {
    const content = Array.from({ length: 40 }, (_, r) => [`row ${r}`]);
    const result = run(CASE4, {
      slides: [{ slide_index: 0, shapes: [{ name: 'Table 1', content, unspecified_cells: 'keep' }] }],
    });
    expect(result.slideCount).toBe(1);
    expect(firstColumn(tables(result)[0]!.get('Table 1'))).toEqual(content.map((r) => r[0]));
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]!.path).toBe('presentation.slides[0].shapes[0].content');
    expect(result.warnings[0]!.message).toMatch(
      /^table "Table 1" runs past the bottom of the slide \(its 40 rows reach about \d+\.\d cm from the top\); "overflow": "continue"/,
    );
    await expectValidPptx(result.bytes, CASE4);
  });

  it('a table that fits says nothing, also with "continue"', async () => {
    const content = [['a'], ['b'], ['c']];
    const result = run(CASE4, {
      slides: [
        { slide_index: 0, shapes: [{ name: 'Table 1', content, unspecified_cells: 'keep' }] },
        {
          slide_index: 0,
          shapes: [{ name: 'Table 1', content, overflow: 'continue', unspecified_cells: 'keep' }],
        },
      ],
    });
    expect(result.slideCount).toBe(2);
    expect(result.warnings).toEqual([]);
    await expectValidPptx(result.bytes, CASE4);
  });
});
