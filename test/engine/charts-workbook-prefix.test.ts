/**
 * Issue 23: a chart whose embedded workbook names SpreadsheetML with another prefix (Aspose writes
 * `<xns:worksheet xmlns:xns="…/spreadsheetml/2006/main">`) gets its workbook cells rewritten along with its
 * caches, and no warning that the workbook has no such sheet.
 */
import { strFromU8, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  readChartSeries,
  chartItemOf,
  packageFiles,
  textOf,
  workbookItemOf,
  workbookReader,
} from '../support/chart-reading.js';
import { GENERATED_CHARTS, generatedChartsDeck } from '../support/chart-templates.js';
import { expectValidPptx } from '../support/expect-valid-pptx.js';
import { editPackage } from '../support/package-edit.js';
import { run, slideParts } from './deck.js';

const SML = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const LINE = 'line stacked with markers';

/**
 * SpreadsheetML under `xns:` below the root of every workbook part that uses it, as Aspose writes it: the root
 * element stays in the default namespace, and both are declared (the template's workbook has Excel 2007's
 * pre-standard namespace: it gets the standard one).
 */
function withXnsPrefix(xml: string): string {
  const declaration = /xmlns="http:\/\/schemas\.openxmlformats\.org\/spreadsheetml\/2006(?:\/7)?\/main"/;
  if (!declaration.test(xml)) return xml;
  let root = true;
  return xml
    .replace(declaration, `xmlns="${SML}" xmlns:xns="${SML}"`)
    .replace(/<(\/?)([A-Za-z][\w.-]*)(?=[\s/>])/g, (_m, slash: string, name: string) => {
      if (root && !slash) {
        root = false;
        return `<${name}`;
      }
      return xml.endsWith(`</${name}>`) && slash ? `</${name}` : `<${slash}xns:${name}`;
    });
}

function withoutXnsPrefix(xml: string): string {
  return xml.replace(` xmlns:xns="${SML}"`, '').replace(/<(\/?)xns:/g, '<$1');
}

const TEMPLATE = editPackage(generatedChartsDeck({ [LINE]: GENERATED_CHARTS[LINE]! }).bytes, (files) => {
  for (const item of Object.keys(files).filter((i) =>
    /^ppt\/embeddings\/Generated_Worksheet\d+\.xlsx$/.test(i),
  ))
    files[item] = editPackage(files[item]!, (book) => {
      for (const part of Object.keys(book).filter((p) => p.startsWith('xl/') && p.endsWith('.xml')))
        book[part] = strToU8(withXnsPrefix(strFromU8(book[part]!)));
    });
});

describe('a chart whose workbook uses another prefix for SpreadsheetML', () => {
  it('gets its workbook cells rewritten with its caches, and no warning', async () => {
    const files = packageFiles(TEMPLATE);
    const sheetXml = Object.entries(packageFiles(files['ppt/embeddings/Generated_Worksheet2.xlsx']!)).find(
      ([item]) => item === 'xl/worksheets/sheet1.xml',
    )![1];
    // The fixture really is written the way Aspose writes it.
    expect(strFromU8(sheetXml)).toMatch(/<worksheet [^>]*xmlns:xns=/);
    expect(strFromU8(sheetXml)).toContain('<xns:c ');

    const result = run(TEMPLATE, {
      slides: [
        {
          slide_index: 1,
          shapes: [
            {
              name: 'Chart 5',
              content: {
                categories: ['North', 'South', 'East'],
                series: [
                  { name: 'Plan', values: [7, 8, 9] },
                  { name: 'Actual', values: [6.5, 8.25, 10] },
                ],
              },
            },
          ],
        },
      ],
    });
    expect(result.warnings).toEqual([]);
    await expectValidPptx(result.bytes, TEMPLATE);
    const out = packageFiles(result.bytes);
    const chartItem = chartItemOf(out, slideParts(result.bytes)[0] as string, 6);
    const series = readChartSeries(textOf(out, chartItem));
    expect(series.map((s) => [s.name, s.categories, s.values])).toEqual([
      ['Plan', ['North', 'South', 'East'], [7, 8, 9]],
      ['Actual', ['North', 'South', 'East'], [6.5, 8.25, 10]],
    ]);
    // ExcelJS reads SpreadsheetML only in the default namespace: the parts the engine left as they were go
    // back there for it (the engine writes the parts it changes with the canonical, default namespace).
    const book = await workbookReader(
      editPackage(out[workbookItemOf(out, chartItem)!]!, (parts) => {
        for (const part of Object.keys(parts).filter((p) => p.endsWith('.xml')))
          parts[part] = strToU8(withoutXnsPrefix(strFromU8(parts[part]!)));
      }),
    );
    expect(book.cells('Sheet1!$B$1:$C$1')).toEqual(['Plan', 'Actual']);
    expect(book.cells('Sheet1!$A$2:$C$4')).toEqual(['North', 7, 6.5, 'South', 8, 8.25, 'East', 9, 10]);
  });
});
