/**
 * The charts of examples/report.pptx (make-report-template.ts), written from the chart schema (ECMA-376 Part 1
 * §21.2): each a chart part whose caches hold its data, and an embedded workbook (written with ExcelJS, a writer
 * independent of the engine) whose cells hold the same, so "Edit Data" in PowerPoint shows what the chart draws.
 */
import ExcelJS from 'exceljs';
import { unzipSync } from 'fflate';
import { writeZip } from '../src/engine/package/zip-writer.js';

const C_NS =
  'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

export type Cell = string | number | Date | null;

export interface ReportChart {
  /** The c:plotArea content. */
  plot: string;
  /** Sheet1 of the workbook, by rows from A1. */
  sheet: Cell[][];
}

const pts = (values: readonly (string | number)[]): string =>
  `<c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}`;
const strRef = (f: string, values: readonly string[]): string =>
  `<c:strRef><c:f>${f}</c:f><c:strCache>${pts(values)}</c:strCache></c:strRef>`;
const numRef = (f: string, values: readonly number[], format = 'General'): string =>
  `<c:numRef><c:f>${f}</c:f><c:numCache><c:formatCode>${format}</c:formatCode>${pts(values)}</c:numCache></c:numRef>`;
const column = (k: number): string => String.fromCharCode(66 + k); // B, C, …
const range = (col: string, count: number): string => `Sheet1!$${col}$2:$${col}$${count + 1}`;
/** The series' fill (or line) in theme accent k+1, so every reader draws the theme's colours. */
const fill = (k: number): string =>
  `<c:spPr><a:solidFill><a:schemeClr val="accent${k + 1}"/></a:solidFill></c:spPr>`;
const line = (k: number): string =>
  `<c:spPr><a:ln w="34925" cap="rnd"><a:solidFill><a:schemeClr val="accent${k + 1}"/></a:solidFill><a:round/></a:ln></c:spPr>`;
const marker = (k: number): string =>
  `<c:marker><c:symbol val="circle"/><c:size val="7"/><c:spPr><a:solidFill><a:schemeClr val="accent${k + 1}"/></a:solidFill><a:ln><a:noFill/></a:ln></c:spPr></c:marker>`;
const head = (k: number, name: string): string =>
  `<c:idx val="${k}"/><c:order val="${k}"/><c:tx>${strRef(`Sheet1!$${column(k)}$1`, [name])}</c:tx>`;

const valAx = (id: number, cross: number, pos: string, between: string, format = 'General'): string =>
  `<c:valAx><c:axId val="${id}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="${pos}"/>` +
  `${pos === 'l' ? '<c:majorGridlines><c:spPr><a:ln w="9525"><a:solidFill><a:schemeClr val="bg1"><a:lumMod val="85000"/></a:schemeClr></a:solidFill></a:ln></c:spPr></c:majorGridlines>' : ''}` +
  `<c:numFmt formatCode="${format}" sourceLinked="1"/><c:majorTickMark val="none"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>` +
  `<c:crossAx val="${cross}"/><c:crosses val="autoZero"/><c:crossBetween val="${between}"/></c:valAx>`;
const catAx =
  '<c:catAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/>' +
  '<c:numFmt formatCode="General" sourceLinked="1"/><c:majorTickMark val="none"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>' +
  '<c:crossAx val="2"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>';

const QUARTERS = ['Q1', 'Q2', 'Q3', 'Q4'];
const REVENUE: [string, number[]][] = [
  ['North', [4.2, 4.6, 5.1, 5.8]],
  ['South', [3.1, 3.4, 3.3, 3.9]],
  ['East', [2.4, 2.9, 3.6, 4.1]],
];

/** "Chart 5": revenue by quarter and region, clustered columns. */
export const REVENUE_CHART: ReportChart = {
  plot:
    '<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/>' +
    REVENUE.map(
      ([name, values], k) =>
        `<c:ser>${head(k, name)}${fill(k)}<c:invertIfNegative val="0"/>` +
        `<c:cat>${strRef(range('A', QUARTERS.length), QUARTERS)}</c:cat>` +
        `<c:val>${numRef(range(column(k), values.length), values)}</c:val></c:ser>`,
    ).join('') +
    '<c:gapWidth val="80"/><c:overlap val="-10"/><c:axId val="1"/><c:axId val="2"/></c:barChart>' +
    catAx +
    valAx(2, 1, 'l', 'between'),
  sheet: [
    [' ', ...REVENUE.map(([name]) => name)],
    ...QUARTERS.map((q, i) => [q, ...REVENUE.map(([, values]) => values[i]!)]),
  ],
};

const DOSES = [0.5, 1, 2, 4];
const TRIALS: [string, number[]][] = [
  ['Trial A', [3.2, 5.1, 8.8, 11.9]],
  ['Trial B', [2.1, 4.0, 6.4, 7.2]],
];

/** "Trial results": response by dose, a scatter chart with lines. */
export const TRIAL_CHART: ReportChart = {
  plot:
    '<c:scatterChart><c:scatterStyle val="lineMarker"/><c:varyColors val="0"/>' +
    TRIALS.map(
      ([name, values], k) =>
        `<c:ser>${head(k, name)}${line(k)}${marker(k)}` +
        `<c:xVal>${numRef(range('A', DOSES.length), DOSES)}</c:xVal>` +
        `<c:yVal>${numRef(range(column(k), values.length), values)}</c:yVal><c:smooth val="0"/></c:ser>`,
    ).join('') +
    '<c:axId val="1"/><c:axId val="2"/></c:scatterChart>' +
    valAx(1, 2, 'b', 'midCat') +
    valAx(2, 1, 'l', 'midCat'),
  sheet: [
    ['Dose', ...TRIALS.map(([name]) => name)],
    ...DOSES.map((d, i) => [d, ...TRIALS.map(([, v]) => v[i]!)]),
  ],
};

const MARKETS = { x: [2.5, 4, 6.5, 8], y: [12, 30, 18, 42], size: [3, 8, 5, 12] };

/** "Market sizes": growth against share, bubbles sized by revenue. */
export const MARKET_CHART: ReportChart = {
  plot:
    '<c:bubbleChart><c:varyColors val="0"/>' +
    `<c:ser>${head(0, 'Markets')}<c:spPr><a:solidFill><a:schemeClr val="accent1"><a:alpha val="75000"/></a:schemeClr></a:solidFill></c:spPr><c:invertIfNegative val="0"/>` +
    `<c:xVal>${numRef(range('A', 4), MARKETS.x)}</c:xVal><c:yVal>${numRef(range('B', 4), MARKETS.y)}</c:yVal>` +
    `<c:bubbleSize>${numRef(range('C', 4), MARKETS.size)}</c:bubbleSize><c:bubble3D val="0"/></c:ser>` +
    '<c:bubbleScale val="100"/><c:showNegBubbles val="0"/><c:axId val="1"/><c:axId val="2"/></c:bubbleChart>' +
    valAx(1, 2, 'b', 'midCat') +
    valAx(2, 1, 'l', 'midCat'),
  sheet: [['Share', 'Markets', 'Size'], ...MARKETS.x.map((x, i) => [x, MARKETS.y[i]!, MARKETS.size[i]!])],
};

const MONTH_ENDS = ['2025-10-31', '2025-11-30', '2025-12-31', '2026-01-31'].map(
  (d) => new Date(`${d}T00:00:00Z`),
);
/** Excel's date serial of a UTC date (1900 date system). */
const serial = (d: Date): number => Math.round((d.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000);
const ORDERS = [96, 104, 118, 111];

/** "Orders": orders per month, a line over a date axis (categories are date serials formatted m/d/yy). */
export const ORDERS_CHART: ReportChart = {
  plot:
    '<c:lineChart><c:grouping val="standard"/><c:varyColors val="0"/>' +
    `<c:ser>${head(0, 'Orders')}${line(0)}${marker(0)}` +
    `<c:cat>${numRef(range('A', 4), MONTH_ENDS.map(serial), 'm/d/yy')}</c:cat>` +
    `<c:val>${numRef(range('B', 4), ORDERS)}</c:val><c:smooth val="0"/></c:ser>` +
    '<c:marker val="1"/><c:axId val="1"/><c:axId val="2"/></c:lineChart>' +
    '<c:dateAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/><c:numFmt formatCode="mmm yy" sourceLinked="0"/>' +
    '<c:majorTickMark val="none"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/><c:crossAx val="2"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblOffset val="100"/><c:baseTimeUnit val="months"/></c:dateAx>' +
    valAx(2, 1, 'l', 'between'),
  sheet: [[' ', 'Orders'], ...MONTH_ENDS.map((d, i) => [d, ORDERS[i]!])],
};

const TEXT_STYLE =
  '<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="1400"><a:solidFill><a:schemeClr val="tx1"><a:lumMod val="75000"/><a:lumOff val="25000"/></a:schemeClr></a:solidFill></a:defRPr></a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr>';

/** The chart part: no title of its own (the slide's title says what it shows), a legend below. */
export function chartPart(chart: ReportChart, legend = true): string {
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<c:chartSpace ${C_NS}><c:date1904 val="0"/><c:roundedCorners val="0"/>` +
    `<c:chart><c:autoTitleDeleted val="1"/><c:plotArea><c:layout/>${chart.plot}</c:plotArea>` +
    (legend ? '<c:legend><c:legendPos val="b"/><c:overlay val="0"/></c:legend>' : '') +
    '<c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart>' +
    `<c:spPr><a:noFill/><a:ln><a:noFill/></a:ln></c:spPr>${TEXT_STYLE}<c:externalData r:id="rId1"><c:autoUpdate val="0"/></c:externalData></c:chartSpace>`
  );
}

/** The embedded workbook: Sheet1 holds `chart.sheet` from A1; dates are written as Excel writes them. */
export async function chartWorkbook(chart: Pick<ReportChart, 'sheet'>): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  // Fixed dates keep the bytes the same on every run.
  book.created = book.modified = new Date('2026-01-01T00:00:00Z');
  book.creator = 'Deckforge examples';
  const sheet = book.addWorksheet('Sheet1');
  chart.sheet.forEach((row, r) =>
    row.forEach((value, c) => {
      if (value === null) return;
      const cell = sheet.getCell(r + 1, c + 1);
      cell.value = value;
      if (value instanceof Date) cell.numFmt = 'm/d/yy';
    }),
  );
  // ExcelJS stamps each zip entry with the time of writing: written again with a fixed time, the bytes are the
  // same on every run.
  const entries = unzipSync(new Uint8Array(await book.xlsx.writeBuffer()));
  return writeZip(
    Object.entries(entries)
      .filter(([name]) => !name.endsWith('/')) // ExcelJS writes folder entries too; a package has none
      .map(([name, data]) => ({ name, data, compress: true })),
  );
}
