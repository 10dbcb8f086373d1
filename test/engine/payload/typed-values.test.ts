/**
 * Typed values (docs/payload.md, Numbers and dates): numbers and dates written with Excel format codes in the
 * deck's locale, in text shapes, runs, table cells, tags and charts; and the refusals of bad ones.
 */
import { describe, expect, it } from 'vitest';
import { generate } from '../../../src/engine/index.js';
import {
  chartItemOf,
  packageFiles,
  readChartSeries,
  textOf,
  workbookItemOf,
  workbookReader,
} from '../../support/readers/chart-reading.js';
import { chartDeck } from '../../support/decks/chart-templates.js';
import { engineErrorOf } from '../../support/checks/engine-error.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { tablesDeck } from '../../support/decks/table-decks.js';
import { tablesIn } from '../../support/readers/table-reading.js';
import { paragraphs, parts, run, SAMPLE, shapeXml, slideParts } from '../../support/decks/deck.js';

const AMOUNT = { number: 1234567.891, format: '#,##0.00 [$€-407]' };
const MARCH_5 = { date: '2026-03-05', format: 'dddd, d. mmmm yyyy' };

describe('typed values', () => {
  it('text shapes, runs and tags write numbers and dates in presentation.locale', async () => {
    const result = run(SAMPLE, {
      locale: 'de-DE',
      tags: [
        { key: 'company', value: { number: 0.256, format: '0.0%' } },
        { key: 'quarter', value: { date: '2026-03-05', format: 'mmmm yyyy' } },
      ],
      slides: [
        { slide_index: 0 },
        {
          slide_index: 1,
          shapes: [
            { name: 'Title', content: AMOUNT },
            {
              name: 'Body',
              content: [{ text_run: 'Stand: ' }, { text_run: MARCH_5, text_properties: { font_bold: true } }],
            },
            { name: 'Footnote', text: { number: -1234.5, format: '#,##0.00;(#,##0.00)' } },
          ],
        },
      ],
    });
    const all = parts(result.bytes);
    const [first, second] = slideParts(result.bytes) as [string, string];
    const slide = all.get(second)!;
    expect(paragraphs(shapeXml(slide, 'Title'))).toEqual(['1.234.567,89 €']);
    expect(paragraphs(shapeXml(slide, 'Body'))).toEqual(['Stand: Donnerstag, 5. März 2026']);
    expect(paragraphs(shapeXml(slide, 'Footnote'))).toEqual(['(1.234,50)']);
    const cover = all.get(first)!;
    expect(cover).toContain('25,6%');
    expect(cover).toContain('März 2026');
    await expectValidPptx(result.bytes, SAMPLE);
  });

  it('without a locale, en-US separators and names are used', () => {
    const result = run(SAMPLE, {
      slides: [
        {
          slide_index: 1,
          shapes: [
            { name: 'Title', content: MARCH_5 },
            { name: 'Body', content: AMOUNT },
          ],
        },
      ],
    });
    const slide = parts(result.bytes).get(slideParts(result.bytes)[0]!)!;
    expect(paragraphs(shapeXml(slide, 'Title'))).toEqual(['Thursday, 5. March 2026']);
    expect(paragraphs(shapeXml(slide, 'Body'))).toEqual(['1,234,567.89 €']);
  });

  it('table cells take typed values, alone or as the text of a cell object', async () => {
    const template = tablesDeck();
    const result = run(template, {
      locale: 'de-DE',
      slides: [
        {
          slide_index: 0,
          shapes: [
            {
              name: 'Table 1',
              content: [
                ['Date', 'Betrag'],
                [
                  { date: '2026-12-31', format: 'd. mmmm yyyy' },
                  { text: { number: 98765.4321, format: '#,##0.00' }, cell_properties: { font_bold: true } },
                ],
              ],
              unspecified_cells: 'clear',
            },
          ],
        },
      ],
    });
    const table = tablesIn(parts(result.bytes).get(slideParts(result.bytes)[0]!)!)[0]!;
    expect(table.rows[1]?.slice(0, 2).map((cell) => cell.text)).toEqual(['31. Dezember 2026', '98.765,43']);
    await expectValidPptx(result.bytes, template);
  });

  it('in a chart the number goes into the cache and the workbook, with the format code on the series', async () => {
    const template = chartDeck();
    const result = generate({
      files: new Map([['t.pptx', template]]),
      payload: {
        presentation: {
          template: 't.pptx',
          locale: 'de-DE',
          slides: [
            {
              slide_index: 0,
              shapes: [
                {
                  name: 'Chart 5',
                  content: {
                    categories: [
                      { date: '2026-01-01', format: 'mmm yy' },
                      { date: '2026-02-01', format: 'mmm yy' },
                    ],
                    series: [
                      {
                        name: 'Share',
                        values: [
                          { number: 0.125, format: '0.0%' },
                          { number: 0.5, format: '0.0%' },
                        ],
                      },
                    ],
                  },
                },
              ],
            },
          ],
        },
      },
    });
    await expectValidPptx(result.bytes, template);
    const files = packageFiles(result.bytes);
    const item = chartItemOf(files, slideParts(result.bytes)[0]!, 6);
    const xml = textOf(files, item);
    const [series] = readChartSeries(xml);
    expect(series?.values).toEqual([0.125, 0.5]);
    expect(series?.categories).toEqual(['Jan 26', 'Feb 26']);
    const val = /<c:val>([\s\S]*?)<\/c:val>/.exec(xml)?.[1] ?? '';
    expect(val).toContain('<c:formatCode>0.0%</c:formatCode>');
    const book = await workbookReader(files[workbookItemOf(files, item)!]!);
    expect(book.cells('Sheet1!$B$2:$B$3')).toEqual([0.125, 0.5]);
  });

  it.each([
    [{ number: 5, format: '0.00E+00' }, 'content.format: format "0.00E+00": exponent formats'],
    [{ number: 5, format: 'd mmmm' }, 'content.format: format "d mmmm": a date format needs a date value'],
    [{ date: '2026-02-30', format: 'd mmmm' }, 'content.date: expected a date "YYYY-MM-DD"'],
    [{ date: '2026-02-03' }, 'content.format: a date needs a format code'],
    [{ number: '5', format: '0' }, 'content.number: expected a number, got "5"'],
    [{ number: 1, date: '2026-01-01', format: '0' }, 'expected only one of number, date'],
  ])('refuses %j with a 400 naming it', (content, message) => {
    const error = engineErrorOf(() =>
      run(SAMPLE, { slides: [{ slide_index: 1, shapes: [{ name: 'Title', content }] }] }),
    );
    expect(error.code).toBe('INVALID_PAYLOAD');
    expect(error.message).toContain(message);
  });

  it('refuses a locale over 100 characters, naming the field, whatever its length', () => {
    const tag = (subtags: number) => `en-x-${Array.from({ length: subtags }, () => 'abcdefgh').join('-')}`;
    expect(run(SAMPLE, { locale: tag(10), slides: [{ slide_index: 0 }] }).slideCount).toBe(1); // 94 characters
    const error = engineErrorOf(() => run(SAMPLE, { locale: tag(200_000), slides: [{ slide_index: 0 }] }));
    expect(error.code).toBe('INVALID_PAYLOAD');
    expect(error.message).toBe(
      'presentation.locale: expected a BCP 47 language tag of at most 100 characters ("en-US", "de-DE"), got 1800004 characters',
    );
  });

  it('refuses a locale it does not know', () => {
    const error = engineErrorOf(() => run(SAMPLE, { locale: 'xx-not a tag', slides: [{ slide_index: 0 }] }));
    expect(error.message).toContain('presentation.locale: expected a BCP 47 language tag');
  });
});
