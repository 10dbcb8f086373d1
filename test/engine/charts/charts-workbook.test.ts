/**
 * The embedded workbook's calculation state (stale calculation chains are dropped): a workbook with
 * a calculation chain loses it (part, relationship, content type) and is marked for a full calculation on load;
 * one with formulas but no chain is marked too; one without formulas keeps its workbook part as it was.
 */
import { strFromU8, strToU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { generate, inspect } from '../../../src/engine/index.js';
import {
  chartItemOf,
  packageFiles,
  workbookItemOf,
  workbookReader,
} from '../../support/readers/chart-reading.js';
import { chartDeck } from '../../support/decks/chart-templates.js';
import { itCorpus, readCorpus } from '../../support/corpus/corpus.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { editPackage, type PackageFiles } from '../../support/decks/package-edit.js';
import { slideParts } from '../../support/decks/deck.js';

const CHART_2D = chartDeck();
const WORKBOOK = 'ppt/embeddings/Microsoft_Excel_Worksheet1.xlsx';

/** The owned chart template with a formula (F2 = SUM(B2:D2)) and the calculation chain Excel writes for it in its workbook. */
function withChain(): Uint8Array {
  return editPackage(CHART_2D, (files) => {
    files[WORKBOOK] = editPackage(files[WORKBOOK]!, (book: PackageFiles) => {
      const edit = (item: string, change: (xml: string) => string): void => {
        book[item] = strToU8(change(strFromU8(book[item]!)));
      };
      edit('xl/worksheets/sheet1.xml', (xml) =>
        xml.replace(/(<row r="2"[^>]*>[\s\S]*?)(<\/row>)/, '$1<c r="F2"><f>SUM(B2:D2)</f><v>63</v></c>$2'),
      );
      book['xl/calcChain.xml'] = strToU8(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<calcChain xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><c r="F2" i="1"/></calcChain>',
      );
      edit('xl/_rels/workbook.xml.rels', (xml) =>
        xml.replace(
          '</Relationships>',
          '<Relationship Id="rId99" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/calcChain" Target="calcChain.xml"/></Relationships>',
        ),
      );
      edit('[Content_Types].xml', (xml) =>
        xml.replace(
          '</Types>',
          '<Override PartName="/xl/calcChain.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.calcChain+xml"/></Types>',
        ),
      );
    });
  });
}

function fillFirstChart(template: Uint8Array, name: string) {
  return generate({
    files: new Map([['t.pptx', template]]),
    payload: {
      presentation: {
        template: 't.pptx',
        slides: [
          {
            slide_index: 0,
            shapes: [
              {
                name,
                content: { categories: ['Q1', 'Q2'], series: [{ name: 'Sales', values: [1.5, 2.5] }] },
              },
            ],
          },
        ],
      },
    },
  });
}

/** The output's workbook (the chart's embedded .xlsx) as its parts' text. */
function outputWorkbook(bytes: Uint8Array, shapeId: number): Record<string, string> {
  const files = packageFiles(bytes);
  const item = workbookItemOf(files, chartItemOf(files, slideParts(bytes)[0] as string, shapeId))!;
  return Object.fromEntries(Object.entries(unzipSync(files[item]!)).map(([k, v]) => [k, strFromU8(v)]));
}

describe('the embedded workbook after a fill', () => {
  it('drops a stale calculation chain and has Excel calculate the formulas on load', async () => {
    const template = withChain();
    const result = fillFirstChart(template, 'Chart 5');
    await expectValidPptx(result.bytes, template);
    const book = outputWorkbook(result.bytes, 6);
    expect(Object.keys(book)).not.toContain('xl/calcChain.xml');
    expect(book['xl/_rels/workbook.xml.rels']).not.toContain('calcChain');
    expect(book['[Content_Types].xml']).not.toContain('calcChain');
    expect(book['xl/workbook.xml']).toMatch(/<calcPr [^>]*fullCalcOnLoad="1"/);
    expect(book['xl/worksheets/sheet1.xml']).toContain('<f>SUM(B2:D2)</f>');
    const files = packageFiles(result.bytes);
    const reader = await workbookReader(
      files[workbookItemOf(files, chartItemOf(files, slideParts(result.bytes)[0]!, 6))!]!,
    );
    expect(reader.cells('Sheet1!$A$2:$B$3')).toEqual(['Q1', 1.5, 'Q2', 2.5]);
  });

  itCorpus('marks a workbook with formulas but no chain for calculation (ShapeCrawler 021)', async () => {
    const template = readCorpus('ShapeCrawler/021.pptx');
    const slide = inspect(template).slides.find((s) =>
      s.shapes.some((sh) => sh.chart?.workbook === 'embedded'),
    )!;
    const chart = slide.shapes.find((sh) => sh.chart?.workbook === 'embedded')!;
    const result = generate({
      files: new Map([['t.pptx', template]]),
      payload: {
        presentation: {
          template: 't.pptx',
          slides: [
            {
              slide_index: slide.index,
              shapes: [
                {
                  shapeId: chart.id,
                  content: { categories: ['Q1', 'Q2'], series: [{ name: 'Sales', values: [40, 60] }] },
                },
              ],
            },
          ],
        },
      },
    });
    await expectValidPptx(result.bytes, template);
    expect(outputWorkbook(result.bytes, chart.id)['xl/workbook.xml']).toMatch(
      /<calcPr [^>]*fullCalcOnLoad="1"/,
    );
  });

  it('leaves the workbook part of a workbook without formulas as it was', async () => {
    const result = fillFirstChart(CHART_2D, 'Chart 5');
    await expectValidPptx(result.bytes, CHART_2D);
    const before = strFromU8(unzipSync(packageFiles(CHART_2D)[WORKBOOK]!)['xl/workbook.xml']!);
    expect(outputWorkbook(result.bytes, 6)['xl/workbook.xml']).toBe(before);
  });

  it('copies of a chart with the same names and different values each keep their own workbook data', async () => {
    // Copies that write the same shared strings and table reuse one compressed part; their sheets differ.
    const copies = [
      { names: ['North', 'South'], values: [1, 2] },
      { names: ['North', 'South'], values: [3, 4] },
      { names: ['East', 'West'], values: [5, 6] },
      { names: ['North', 'South'], values: [7, 8] },
    ];
    const result = generate({
      files: new Map([['t.pptx', CHART_2D]]),
      payload: {
        presentation: {
          template: 't.pptx',
          slides: copies.map((c) => ({
            slide_index: 0,
            shapes: [
              {
                name: 'Chart 5',
                content: {
                  categories: ['Q1'],
                  series: c.names.map((name, k) => ({ name, values: [c.values[k]] })),
                },
              },
            ],
          })),
        },
      },
    });
    await expectValidPptx(result.bytes, CHART_2D);
    const files = packageFiles(result.bytes);
    const order = slideParts(result.bytes);
    for (const [i, c] of copies.entries()) {
      const item = workbookItemOf(files, chartItemOf(files, order[i]!, 6))!;
      const book = await workbookReader(files[item]!);
      expect(book.cells('Sheet1!$B$1:$C$2'), `copy ${i}`).toEqual([...c.names, ...c.values]);
      expect(book.cells('Sheet1!$A$2'), `copy ${i}`).toEqual(['Q1']);
      expect(strFromU8(unzipSync(files[item]!)['xl/tables/table1.xml']!), `copy ${i}`).toContain(
        `name="${c.names[1]}"`,
      );
    }
  });
});
