/**
 * Test templates for the chartEx layouts the corpus lacks (waterfall, funnel, treemap, histogram, pareto, box &
 * whisker, region map), written from the chartex schema (MS-ODRAWXML §2.24; the Open XML SDK's
 * `schemas_microsoft_com_office_drawing_2014_chartex`) in the shapes PowerPoint 2016 writes them (the Open XML
 * SDK's Office 2016 test files hold a waterfall, a box & whisker, a treemap and a sunburst made by PowerPoint;
 * docs/powerpoint-rules.md "chartEx charts"), and a sunburst for the first slide. chart-ex-deck.ts puts them into
 * decks.
 */
import { strToU8, unzipSync, zipSync } from 'fflate';

const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:cx="http://schemas.microsoft.com/office/drawing/2014/chartex"';

export type Cell = string | number | null;

/** A chartEx test chart: its part's `cx:chartData` and `cx:chart`, and `Sheet1` of its workbook by rows from A1. */
export interface ChartExTemplate {
  data: string;
  chart: string;
  sheet: Cell[][];
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** `cx:lvl` of text points (an empty string is a point with no text, as PowerPoint writes blank cells). */
function strLvl(values: readonly string[]): string {
  return `<cx:lvl ptCount="${values.length}">${values.map((v, i) => `<cx:pt idx="${i}">${esc(v)}</cx:pt>`).join('')}</cx:lvl>`;
}

function numLvl(values: readonly number[]): string {
  return `<cx:lvl ptCount="${values.length}" formatCode="General">${values.map((v, i) => `<cx:pt idx="${i}">${v}</cx:pt>`).join('')}</cx:lvl>`;
}

/** A text dimension; `levels` leaf first, as PowerPoint orders them. */
function strDim(f: string, ...levels: string[][]): string {
  return `<cx:strDim type="cat"><cx:f>${f}</cx:f>${levels.map(strLvl).join('')}</cx:strDim>`;
}

function numDim(type: string, f: string, values: readonly number[]): string {
  return `<cx:numDim type="${type}"><cx:f>${f}</cx:f>${numLvl(values)}</cx:numDim>`;
}

function series(layout: string, k: number, nameRef: string, name: string, inner: string): string {
  const uid = `{6D0C1E${String(k).padStart(2, '0')}-0000-4000-8000-${layout.length.toString(16).padStart(12, '0')}}`;
  return `<cx:series layoutId="${layout}" uniqueId="${uid}" formatIdx="${k}"><cx:tx><cx:txData><cx:f>${nameRef}</cx:f><cx:v>${esc(name)}</cx:v></cx:txData></cx:tx>${inner}</cx:series>`;
}

const labels = (pos: string, what: 'value' | 'categoryName'): string =>
  `<cx:dataLabels pos="${pos}"><cx:visibility seriesName="0" categoryName="${what === 'categoryName' ? 1 : 0}" value="${what === 'value' ? 1 : 0}"/></cx:dataLabels>`;
const catAxis = (id: number, gap: string): string =>
  `<cx:axis id="${id}"><cx:catScaling gapWidth="${gap}"/><cx:tickLabels/></cx:axis>`;
const valAxis = (id: number): string =>
  `<cx:axis id="${id}"><cx:valScaling/><cx:majorGridlines/><cx:tickLabels/></cx:axis>`;
const legend = '<cx:legend pos="t" align="ctr" overlay="0"/>';
const title = '<cx:title pos="t" align="ctr" overlay="0"/>';

function plot(seriesXml: string, axes = '', withLegend = true): string {
  return `${title}<cx:plotArea><cx:plotAreaRegion>${seriesXml}</cx:plotAreaRegion>${axes}</cx:plotArea>${withLegend ? legend : ''}`;
}

const STEPS = ['Start', 'Sales', 'Returns', 'Costs', 'Tax', 'End'];
const FLOW = [100, 40, -15, -30, -10, 85];
const STAGES = ['Leads', 'Calls', 'Demos', 'Offers', 'Deals'];
const FUNNEL = [500, 320, 150, 60, 25];
const LEAVES = ['Oak', 'Elm', 'Ash', 'Fir', 'Yew', 'Pine'];
const FAMILIES = ['Broadleaf', 'Broadleaf', 'Broadleaf', 'Conifer', 'Conifer', 'Conifer'];
const SIZES = [12, 8, 5, 20, 3, 9];
const SCORES = [52, 61, 64, 68, 70, 71, 75, 77, 80, 84, 88, 93];
const DEFECTS = ['Scratch', 'Dent', 'Crack', 'Stain', 'Other'];
const COUNTS = [45, 30, 12, 8, 5];
const GROUPS = ['North', 'North', 'North', 'North', 'South', 'South', 'South', 'South'];
const SAMPLES = [
  [12, 15, 18, 30, 9, 11, 14, 22],
  [20, 22, 25, 27, 13, 17, 19, 35],
];
const REGIONS = ['Bavaria', 'Hesse', 'Saxony'];
const COUNTRY = ['Germany', 'Germany', 'Germany'];
const REGION_VALUES = [13.1, 6.3, 4.1];

const column = (header: Cell, values: readonly Cell[]): Cell[] => [header, ...values];
/** Rows from columns (each column a header then its values). */
function rows(...columns: Cell[][]): Cell[][] {
  const height = Math.max(...columns.map((c) => c.length));
  return Array.from({ length: height }, (_, r) => columns.map((c) => c[r] ?? null));
}

const BRANCHES = ['Trees', 'Trees', 'Trees', 'Trees', 'Shrubs', 'Shrubs', 'Shrubs', 'Herbs'];
const STEMS = ['Broadleaf', 'Broadleaf', 'Conifer', 'Conifer', 'Berries', 'Berries', 'Hedge', 'Mint'];
const TIPS = ['Oak', 'Elm', 'Fir', 'Yew', 'Holly', 'Rowan', 'Privet', ''];
const GROWTH = [12, 8, 20, 3, 5, 4, 9, 6];

/**
 * The first slide's chart: a sunburst of three levels (branch in A, stem in B, leaf in C; Mint has no leaf and
 * is a leaf itself) and its values in D, as PowerPoint lays out a sunburst's data.
 */
export const SUNBURST: ChartExTemplate = {
  data: `<cx:data id="0">${strDim('Sheet1!$A$2:$C$9', TIPS, STEMS, BRANCHES)}${numDim('size', 'Sheet1!$D$2:$D$9', GROWTH)}</cx:data>`,
  chart: plot(
    series('sunburst', 0, 'Sheet1!$D$1', 'Growth', `${labels('ctr', 'categoryName')}<cx:dataId val="0"/>`),
  ),
  sheet: rows(
    column(null, BRANCHES),
    column(null, STEMS),
    column(
      null,
      TIPS.map((t) => t || null),
    ),
    column('Growth', GROWTH),
  ),
};

/** The chartEx layouts by name, in slide order (slide 1 of the deck is SUNBURST). */
export const GENERATED_CHART_EX: Record<string, ChartExTemplate> = {
  waterfall: {
    data: `<cx:data id="0">${strDim('Sheet1!$A$2:$A$7', STEPS)}${numDim('val', 'Sheet1!$B$2:$B$7', FLOW)}</cx:data>`,
    chart: plot(
      series(
        'waterfall',
        0,
        'Sheet1!$B$1',
        'Cash flow',
        `${labels('outEnd', 'value')}<cx:dataId val="0"/><cx:layoutPr><cx:subtotals><cx:idx val="0"/><cx:idx val="5"/></cx:subtotals></cx:layoutPr>`,
      ),
      catAxis(0, '0.5') + valAxis(1),
    ),
    sheet: rows(column(null, STEPS), column('Cash flow', FLOW)),
  },
  // PowerPoint's waterfall from a single column of numbers has no category dimension (Of16-01.pptx).
  'waterfall without categories': {
    data: `<cx:data id="0">${numDim('val', 'Sheet1!$A$2:$A$7', FLOW)}</cx:data>`,
    chart: plot(
      series(
        'waterfall',
        0,
        'Sheet1!$A$1',
        'Steps',
        `${labels('outEnd', 'value')}<cx:dataId val="0"/><cx:layoutPr><cx:subtotals><cx:idx val="5"/></cx:subtotals></cx:layoutPr>`,
      ),
      catAxis(0, '0.5') + valAxis(1),
    ),
    sheet: rows(column('Steps', FLOW)),
  },
  funnel: {
    data: `<cx:data id="0">${strDim('Sheet1!$A$2:$A$6', STAGES)}${numDim('val', 'Sheet1!$B$2:$B$6', FUNNEL)}</cx:data>`,
    chart: plot(
      series('funnel', 0, 'Sheet1!$B$1', 'Pipeline', `${labels('ctr', 'value')}<cx:dataId val="0"/>`),
      catAxis(0, '0.06'),
      false,
    ),
    sheet: rows(column(null, STAGES), column('Pipeline', FUNNEL)),
  },
  treemap: {
    data: `<cx:data id="0">${strDim('Sheet1!$A$2:$B$7', LEAVES, FAMILIES)}${numDim('size', 'Sheet1!$C$2:$C$7', SIZES)}</cx:data>`,
    chart: plot(
      series(
        'treemap',
        0,
        'Sheet1!$C$1',
        'Trees',
        `${labels('inEnd', 'categoryName')}<cx:dataId val="0"/><cx:layoutPr><cx:parentLabelLayout val="overlapping"/></cx:layoutPr>`,
      ),
    ),
    sheet: rows(column(null, FAMILIES), column(null, LEAVES), column('Trees', SIZES)),
  },
  // A histogram is a column series that bins its one dimension of numbers (layoutPr/binning); no categories.
  histogram: {
    data: `<cx:data id="0">${numDim('val', 'Sheet1!$A$2:$A$13', SCORES)}</cx:data>`,
    chart: plot(
      series(
        'clusteredColumn',
        0,
        'Sheet1!$A$1',
        'Scores',
        '<cx:dataId val="0"/><cx:layoutPr><cx:binning intervalClosed="r"/></cx:layoutPr>',
      ),
      catAxis(0, '0') + valAxis(1),
      false,
    ),
    sheet: rows(column('Scores', SCORES)),
  },
  // A pareto of categories: the column series sums its values by category (layoutPr/aggregation); the line
  // (ownerIdx) draws their cumulative share on the percentage axis.
  pareto: {
    data: `<cx:data id="0">${strDim('Sheet1!$A$2:$A$6', DEFECTS)}${numDim('val', 'Sheet1!$B$2:$B$6', COUNTS)}</cx:data>`,
    chart: plot(
      series(
        'clusteredColumn',
        0,
        'Sheet1!$B$1',
        'Defects',
        '<cx:dataId val="0"/><cx:layoutPr><cx:aggregation/></cx:layoutPr><cx:axisId>1</cx:axisId>',
      ) +
        '<cx:series layoutId="paretoLine" ownerIdx="0" uniqueId="{6D0C1E01-0000-4000-8000-00000000000A}" formatIdx="1"><cx:axisId>2</cx:axisId></cx:series>',
      catAxis(0, '0') +
        valAxis(1) +
        '<cx:axis id="2"><cx:valScaling max="1" min="0"/><cx:units unit="percentage"/><cx:tickLabels/></cx:axis>',
    ),
    sheet: rows(column(null, DEFECTS), column('Defects', COUNTS)),
  },
  // One point per observation; the category says which box it belongs to (Of16-02.pptx).
  'box and whisker': {
    data: SAMPLES.map(
      (values, k) =>
        `<cx:data id="${k}">${strDim('Sheet1!$A$2:$A$9', GROUPS)}${numDim('val', `Sheet1!$${'BC'[k]}$2:$${'BC'[k]}$9`, values)}</cx:data>`,
    ).join(''),
    chart: plot(
      SAMPLES.map((_, k) =>
        series(
          'boxWhisker',
          k,
          `Sheet1!$${'BC'[k]}$1`,
          `Trial ${k + 1}`,
          `<cx:dataId val="${k}"/><cx:layoutPr><cx:visibility meanLine="0" meanMarker="1" nonoutliers="0" outliers="1"/><cx:statistics quartileMethod="exclusive"/></cx:layoutPr>`,
        ),
      ).join(''),
      catAxis(0, '1') + valAxis(1),
    ),
    sheet: rows(column(null, GROUPS), column('Trial 1', SAMPLES[0]!), column('Trial 2', SAMPLES[1]!)),
  },
  // Regions with their country as the parent level; the colour dimension holds the values.
  'region map': {
    data: `<cx:data id="0">${strDim('Sheet1!$A$2:$B$4', REGIONS, COUNTRY)}${numDim('colorVal', 'Sheet1!$C$2:$C$4', REGION_VALUES)}</cx:data>`,
    chart: plot(
      series(
        'regionMap',
        0,
        'Sheet1!$C$1',
        'Population',
        `${labels('ctr', 'value')}<cx:dataId val="0"/><cx:layoutPr><cx:regionLabelLayout val="bestFitOnly"/><cx:geography viewedRegionType="state" cultureLanguage="en-US" cultureRegion="US" attribution="Powered by Bing"/></cx:layoutPr>`,
      ),
    ),
    sheet: rows(column(null, COUNTRY), column(null, REGIONS), column('Population', REGION_VALUES)),
  },
};

export function chartExPart(t: ChartExTemplate): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<cx:chartSpace ${NS}><cx:chartData><cx:externalData r:id="rId1" cx:autoUpdate="0"/>${t.data}</cx:chartData><cx:chart>${t.chart}</cx:chart></cx:chartSpace>`;
}

function columnName(index: number): string {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** The template workbook with `Sheet1` (and its shared strings) rewritten to hold `sheet`. */
export function workbookWith(template: Uint8Array, sheet: readonly Cell[][]): Uint8Array<ArrayBuffer> {
  const files = unzipSync(template);
  const strings: string[] = [];
  const width = Math.max(...sheet.map((r) => r.length));
  const rowsXml = sheet
    .map((row, r) => {
      const cells = row
        .map((value, c) => {
          const ref = `${columnName(c)}${r + 1}`;
          if (value === null) return '';
          if (typeof value === 'number') return `<c r="${ref}"><v>${value}</v></c>`;
          strings.push(value);
          return `<c r="${ref}" t="s"><v>${strings.length - 1}</v></c>`;
        })
        .join('');
      return `<row r="${r + 1}" spans="1:${width}">${cells}</row>`;
    })
    .join('');
  const old = new TextDecoder().decode(files['xl/worksheets/sheet1.xml']);
  files['xl/worksheets/sheet1.xml'] = strToU8(
    old
      .replace(/<dimension ref="[^"]*"\/>/, `<dimension ref="A1:${columnName(width - 1)}${sheet.length}"/>`)
      .replace(/<sheetData>[\s\S]*<\/sheetData>/, `<sheetData>${rowsXml}</sheetData>`),
  );
  files['xl/sharedStrings.xml'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t>${esc(s)}</t></si>`).join('')}</sst>`,
  );
  return new Uint8Array(zipSync(files));
}
