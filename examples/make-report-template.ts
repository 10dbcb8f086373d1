/**
 * Writes examples/report.pptx, the template of the table and chart examples in docs/payload-tables.md and
 * docs/payload-charts.md (the pieces it is made of are in template-kit.ts, report-charts.ts and report-chart-ex.ts):
 *   npx tsx examples/make-report-template.ts [FOLDER]   (examples/ unless FOLDER is given)
 *
 * Slides, each on the layout "Title and Content" with its title placeholder "Title 1":
 *   0 "Quarterly figures": "Table 1", 6 rows × 5 columns, a header row (Region | Q1 | Q2 | Q3 | Q4)
 *   1 "Revenue by quarter": "Chart 5", clustered columns, three regions over four quarters
 *   2 "Dose response": "Trial results", a scatter chart of two trials
 *   3 "Markets": "Market sizes", a bubble chart
 *   4 "Orders per month": "Orders", a line over a date axis
 *   5 "Exam scores": "Scores", a histogram (report-chart-ex.ts: the newer chart types)
 *   6 "Spread by region": "Trials", a box and whisker chart
 * Every slide has a "Source" text box at the bottom.
 */
import { writeFileSync } from 'node:fs';
import {
  chartExFrame,
  chartExPart,
  fallbackPng,
  SCORES_CHART,
  TRIALS_CHART,
  type ChartExChart,
} from './report-chart-ex.js';
import {
  chartPart,
  chartWorkbook,
  MARKET_CHART,
  ORDERS_CHART,
  REVENUE_CHART,
  TRIAL_CHART,
  type ReportChart,
} from './report-charts.js';
import {
  CONTENT_LAYOUT,
  DECKFORGE_COLOURS,
  para,
  placeholder,
  REL,
  rels,
  slide,
  textBox,
  TITLE_LAYOUT,
  writeDeck,
  xfrm,
  type ExtraPart,
  type SlideSpec,
} from './template-kit.js';
import { outputFolder } from './output-folder.js';

const TABLE: string[][] = [
  ['Region', 'Q1', 'Q2', 'Q3', 'Q4'],
  ['North', '4,210', '4,630', '5,120', '5,840'],
  ['South', '3,080', '3,410', '3,290', '3,920'],
  ['East', '2,370', '2,910', '3,640', '4,080'],
  ['West', '1,950', '2,040', '2,310', '2,660'],
  ['Central', '1,120', '1,260', '1,380', '1,510'],
];
const COLUMN_WIDTHS = [3_100_000, 1_850_000, 1_850_000, 1_850_000, 1_850_000];
const ROW_HEIGHT = 548_640;
const CONTENT_X = 838200;
const CONTENT_Y = 1825625;

/** A cell with its own fill and weight (header: accent 1, white bold; bands: light grey), drawn alike everywhere. */
function cell(text: string, column: number, row: number): string {
  const align = column === 0 ? '' : ' algn="r"';
  const header = row === 0;
  const colour = header ? '<a:solidFill><a:schemeClr val="bg1"/></a:solidFill>' : '';
  const fill = header ? 'accent1' : row % 2 ? 'bg2' : 'bg1';
  return (
    `<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:pPr${align}/><a:r><a:rPr lang="en-US" sz="1800"${header ? ' b="1"' : ''} dirty="0">${colour}</a:rPr>` +
    `<a:t>${text}</a:t></a:r></a:p></a:txBody><a:tcPr anchor="ctr"><a:solidFill><a:schemeClr val="${fill}"/></a:solidFill></a:tcPr></a:tc>`
  );
}

/** "Table 1" in the layout's content placeholder, styled by the built-in "Medium Style 2 - Accent 1". */
function tableFrame(): string {
  const width = COLUMN_WIDTHS.reduce((a, b) => a + b, 0);
  const rows = TABLE.map(
    (row, r) => `<a:tr h="${ROW_HEIGHT}">${row.map((text, c) => cell(text, c, r)).join('')}</a:tr>`,
  ).join('');
  return (
    '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="5" name="Table 1"/>' +
    '<p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvGraphicFramePr>' +
    `<p:xfrm><a:off x="${CONTENT_X}" y="${CONTENT_Y}"/><a:ext cx="${width}" cy="${ROW_HEIGHT * TABLE.length}"/></p:xfrm>` +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table">' +
    '<a:tbl><a:tblPr firstRow="1" bandRow="1"><a:tableStyleId>{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}</a:tableStyleId></a:tblPr>' +
    `<a:tblGrid>${COLUMN_WIDTHS.map((w) => `<a:gridCol w="${w}"/>`).join('')}</a:tblGrid>${rows}</a:tbl></a:graphicData></a:graphic>` +
    '</p:graphicFrame>'
  );
}

/** A chart's graphic frame (shape id 5) in the layout's content placeholder. */
function chartFrame(name: string): string {
  return (
    `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="5" name="${name}"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvGraphicFramePr>` +
    `<p:xfrm><a:off x="${CONTENT_X}" y="${CONTENT_Y}"/><a:ext cx="10515600" cy="4114800"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">` +
    '<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rId2"/></a:graphicData></a:graphic></p:graphicFrame>'
  );
}

const source = (text: string): string =>
  textBox(
    6,
    'Source',
    xfrm(CONTENT_X, 6126163, 10515600, 369332),
    para(
      text,
      0,
      '<a:rPr lang="en-US" sz="1200" i="1" dirty="0"><a:solidFill><a:schemeClr val="tx2"/></a:solidFill></a:rPr>',
    ),
  );

const title = (text: string): string => placeholder(2, 'Title 1', '<p:ph type="title"/>', '', [para(text)]);

const CHARTS: [string, string, ReportChart, string][] = [
  ['Revenue by quarter', 'Chart 5', REVENUE_CHART, 'Revenue in EUR m; source: regional ledgers'],
  ['Dose response', 'Trial results', TRIAL_CHART, 'Response score by dose (mg); two trial groups'],
  ['Markets', 'Market sizes', MARKET_CHART, 'Share (%) against growth (%); bubble size: revenue'],
  ['Orders per month', 'Orders', ORDERS_CHART, 'Orders booked, by month end'],
];

const CHART_EX: [string, string, ChartExChart, string][] = [
  ['Exam scores', 'Scores', SCORES_CHART, 'Scores of one class, in bins of ten points'],
  ['Spread by region', 'Trials', TRIALS_CHART, 'Trial 1 results by region: quartiles, median and range'],
];

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CHART_EX_REL = 'http://schemas.microsoft.com/office/2014/relationships/chartEx';
const CHART_EX_TYPE = 'application/vnd.ms-office.chartex+xml';
const CHART_TYPE = 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml';

const slides: SlideSpec[] = [
  {
    xml: slide(
      title('Quarterly figures') + tableFrame() + source('Revenue in EUR thousand; source: regional ledgers'),
    ),
    layout: 2,
  },
  ...CHARTS.map(([heading, name, , note], i): SlideSpec => ({
    xml: slide(title(heading) + chartFrame(name) + source(note)),
    layout: 2,
    rels: [['rId2', `${REL}/chart`, `../charts/chart${i + 1}.xml`]],
  })),
  ...CHART_EX.map(([heading, name, , note], i): SlideSpec => ({
    xml: slide(title(heading) + chartExFrame(name, CONTENT_X, CONTENT_Y, 6583680, 4114800) + source(note)),
    layout: 2,
    rels: [
      ['rId2', CHART_EX_REL, `../charts/chartEx${i + 1}.xml`],
      ['rId3', `${REL}/image`, `../media/image${i + 1}.png`],
    ],
  })),
];

const parts: ExtraPart[] = [];
for (const [i, [, , chart]] of CHARTS.entries()) {
  const n = i + 1;
  parts.push(
    {
      name: `ppt/charts/chart${n}.xml`,
      data: chartPart(chart, chart !== MARKET_CHART),
      contentType: CHART_TYPE,
    },
    {
      name: `ppt/charts/_rels/chart${n}.xml.rels`,
      data: rels([['rId1', `${REL}/package`, `../embeddings/Microsoft_Excel_Worksheet${n}.xlsx`]]),
    },
    { name: `ppt/embeddings/Microsoft_Excel_Worksheet${n}.xlsx`, data: await chartWorkbook(chart) },
  );
}

for (const [i, [, , chart]] of CHART_EX.entries()) {
  const n = i + 1;
  const workbook = `Microsoft_Excel_Worksheet${CHARTS.length + n}.xlsx`;
  parts.push(
    { name: `ppt/charts/chartEx${n}.xml`, data: chartExPart(chart), contentType: CHART_EX_TYPE },
    {
      name: `ppt/charts/_rels/chartEx${n}.xml.rels`,
      data: rels([['rId1', `${REL}/package`, `../embeddings/${workbook}`]]),
    },
    { name: `ppt/embeddings/${workbook}`, data: await chartWorkbook(chart) },
    { name: `ppt/media/image${n}.png`, data: await fallbackPng(chart) },
  );
}

const bytes = writeDeck({
  themeName: 'Deckforge Report',
  colours: DECKFORGE_COLOURS,
  layouts: [TITLE_LAYOUT, CONTENT_LAYOUT],
  slides,
  parts,
  defaults: { xlsx: XLSX, png: 'image/png' },
});
const target = new URL('report.pptx', outputFolder());
writeFileSync(target, bytes);
console.log(`wrote ${target.pathname} (${bytes.length} bytes)`);
