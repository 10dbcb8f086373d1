/**
 * Workbooks of every kind. A chart whose embedded workbook names SpreadsheetML with another prefix (Aspose writes
 * `<xns:worksheet xmlns:xns="…/spreadsheetml/2006/main">`) gets its workbook cells rewritten along with its
 * caches, and no warning that the workbook has no such sheet. A binary (.xlsb) or Excel 97-2003 workbook is kept as
 * it was, its chart's caches filled, with a warning naming which kind it is.
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
} from '../../support/readers/chart-reading.js';
import { GENERATED_CHARTS, generatedChartsDeck } from '../../support/decks/chart-templates.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { editPackage } from '../../support/decks/package-edit.js';
import { run, slideParts } from '../../support/decks/deck.js';

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

/** Built on first use. */
let prefixedTemplate: Uint8Array | undefined;
const template = (): Uint8Array =>
  (prefixedTemplate ??= editPackage(
    generatedChartsDeck({ [LINE]: GENERATED_CHARTS[LINE]! }).bytes,
    (files) => {
      for (const item of Object.keys(files).filter((i) =>
        /^ppt\/embeddings\/Generated_Worksheet\d+\.xlsx$/.test(i),
      ))
        files[item] = editPackage(files[item]!, (book) => {
          for (const part of Object.keys(book).filter((p) => p.startsWith('xl/') && p.endsWith('.xml')))
            book[part] = strToU8(withXnsPrefix(strFromU8(book[part]!)));
        });
    },
  ));

const CHART_CONTENT = {
  categories: ['North', 'South', 'East'],
  series: [
    { name: 'Plan', values: [7, 8, 9] },
    { name: 'Actual', values: [6.5, 8.25, 10] },
  ],
};

describe('a chart whose workbook uses another prefix for SpreadsheetML', () => {
  it('gets its workbook cells rewritten with its caches, and no warning', async () => {
    const files = packageFiles(template());
    const sheetXml = Object.entries(packageFiles(files['ppt/embeddings/Generated_Worksheet2.xlsx']!)).find(
      ([item]) => item === 'xl/worksheets/sheet1.xml',
    )![1];
    // The fixture really is written the way Aspose writes it.
    expect(strFromU8(sheetXml)).toMatch(/<worksheet [^>]*xmlns:xns=/);
    expect(strFromU8(sheetXml)).toContain('<xns:c ');

    const result = run(template(), {
      slides: [
        {
          slide_index: 1,
          shapes: [
            {
              name: 'Chart 5',
              content: CHART_CONTENT,
            },
          ],
        },
      ],
    });
    expect(result.warnings).toEqual([]);
    await expectValidPptx(result.bytes, template());
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

/** The line chart's workbook replaced by `bytes` under `name`, related as `type`, with `contentType`. */
function withWorkbook(name: string, type: string, contentType: string, bytes: Uint8Array): Uint8Array {
  const plain = generatedChartsDeck({ [LINE]: GENERATED_CHARTS[LINE]! }).bytes;
  return editPackage(plain, (files) => {
    delete files['ppt/embeddings/Generated_Worksheet2.xlsx'];
    files[`ppt/embeddings/${name}`] = bytes;
    files['ppt/charts/_rels/chart2.xml.rels'] = strToU8(
      strFromU8(files['ppt/charts/_rels/chart2.xml.rels']!)
        .replace('Generated_Worksheet2.xlsx', name)
        .replace('http://schemas.openxmlformats.org/officeDocument/2006/relationships/package', type),
    );
    const extension = name.slice(name.lastIndexOf('.') + 1);
    files['[Content_Types].xml'] = strToU8(
      strFromU8(files['[Content_Types].xml']!).replace(
        '</Types>',
        `<Default Extension="${extension}" ContentType="${contentType}"/></Types>`,
      ),
    );
  });
}

describe('a chart whose workbook this service does not edit', () => {
  const OFFICE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  // What these files begin with: a zip (.xlsb is a package of binary parts) and an OLE compound file (.xls).
  const xlsb = editPackage(
    packageFiles(generatedChartsDeck({ [LINE]: GENERATED_CHARTS[LINE]! }).bytes)[
      'ppt/embeddings/Generated_Worksheet2.xlsx'
    ]!,
    (book) => {
      for (const part of Object.keys(book)) if (part.startsWith('xl/')) delete book[part];
      book['xl/workbook.bin'] = new Uint8Array([0x83, 0x01, 0x00]);
    },
  );
  const xls = new Uint8Array(1536);
  xls.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  const cases = [
    {
      kind: 'a binary Excel workbook (.xlsb)',
      template: withWorkbook(
        'Sheet_Data.xlsb',
        `${OFFICE}/package`,
        'application/vnd.ms-excel.sheet.binary.macroEnabled.12',
        xlsb,
      ),
      item: 'ppt/embeddings/Sheet_Data.xlsb',
      bytes: xlsb,
    },
    {
      kind: 'an Excel 97-2003 workbook',
      template: withWorkbook(
        'Microsoft_Excel_97-2003_Worksheet1.xls',
        `${OFFICE}/package`,
        'application/vnd.ms-excel',
        xls,
      ),
      item: 'ppt/embeddings/Microsoft_Excel_97-2003_Worksheet1.xls',
      bytes: xls,
    },
  ];
  for (const { kind, template, item, bytes } of cases) {
    it(`fills the caches and keeps ${kind}, with a warning that says so`, async () => {
      const result = run(template, {
        slides: [{ slide_index: 1, shapes: [{ name: 'Chart 5', content: CHART_CONTENT }] }],
      });
      await expectValidPptx(result.bytes, template);
      expect(result.warnings.map((w) => w.message)).toEqual([
        expect.stringContaining(`the chart's data is in ${kind}`),
      ]);
      expect(result.warnings[0]!.message).toContain('the workbook was kept as it was');
      const out = packageFiles(result.bytes);
      const chartItem = chartItemOf(out, slideParts(result.bytes)[0] as string, 6);
      expect(readChartSeries(textOf(out, chartItem)).map((s) => [s.name, s.values])).toEqual([
        ['Plan', [7, 8, 9]],
        ['Actual', [6.5, 8.25, 10]],
      ]);
      const kept = Object.keys(out).find((o) => o.endsWith(item.slice(item.lastIndexOf('.'))));
      expect(kept && out[kept]).toEqual(bytes);
    });
  }
});
