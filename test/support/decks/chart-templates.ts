/**
 * The owned chart templates, written from the chart schema (ECMA-376 Part 1 §21.2, dml-chart.xsd) on the
 * layouts template's master: `chartDeck()` has one slide with one chart ("Chart 5") and an embedded workbook
 * (Sheet1!A1:D5: three series of four categories, written with ExcelJS to hold what the caches hold); in
 * `generatedChartsDeck()` each chart type gets a slide of its own after it, a copy of that slide with its own
 * chart part and its own workbook.
 */
import { strToU8, unzipSync, zipSync } from 'fflate';
import { chartWorkbook, type Cell } from './chart-workbook.js';
import { oneSlideDeck, relationships, titleShape } from './one-slide-deck.js';

const C =
  'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const CATS = ['Category 1', 'Category 2', 'Category 3', 'Category 4'];
const COLS = ['B', 'C', 'D', 'E'];

function strCache(values: readonly string[]): string {
  return `<c:strCache><c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}</c:strCache>`;
}
function numCache(values: readonly number[]): string {
  return `<c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}</c:numCache>`;
}
function values(k: number): number[] {
  return CATS.map((_, i) => 10 * (k + 1) + i + 1);
}
function tx(k: number): string {
  return `<c:tx><c:strRef><c:f>Sheet1!$${COLS[k]}$1</c:f>${strCache([`Series ${k + 1}`])}</c:strRef></c:tx>`;
}
const cat = `<c:cat><c:strRef><c:f>Sheet1!$A$2:$A$5</c:f>${strCache(CATS)}</c:strRef></c:cat>`;
function val(k: number): string {
  return `<c:val><c:numRef><c:f>Sheet1!$${COLS[k]}$2:$${COLS[k]}$5</c:f>${numCache(values(k))}</c:numRef></c:val>`;
}
function head(k: number, order = k): string {
  return `<c:idx val="${k}"/><c:order val="${order}"/>${tx(k)}`;
}
/** A category series with the type-specific elements `mid` (before cat) and `tail` (after val). */
function ser(k: number, mid = '', tail = ''): string {
  return `<c:ser>${head(k)}${mid}${cat}${val(k)}${tail}</c:ser>`;
}
function sers(count: number, mid = '', tail = '', from = 0): string {
  return Array.from({ length: count }, (_, i) => ser(from + i, mid, tail)).join('');
}
const ids = (...n: number[]): string => n.map((id) => `<c:axId val="${id}"/>`).join('');
const catAx = (id: number, cross: number, pos = 'b', extra = ''): string =>
  `<c:catAx><c:axId val="${id}"/><c:scaling><c:orientation val="minMax"/></c:scaling>${extra}<c:axPos val="${pos}"/><c:tickLblPos val="nextTo"/><c:crossAx val="${cross}"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/></c:catAx>`;
const valAx = (id: number, cross: number, pos = 'l', crosses = 'autoZero', between = 'between'): string =>
  `<c:valAx><c:axId val="${id}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:axPos val="${pos}"/><c:majorGridlines/><c:numFmt formatCode="General" sourceLinked="1"/><c:tickLblPos val="nextTo"/><c:crossAx val="${cross}"/><c:crosses val="${crosses}"/><c:crossBetween val="${between}"/></c:valAx>`;
const serAx = (id: number, cross: number): string =>
  `<c:serAx><c:axId val="${id}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:axPos val="b"/><c:tickLblPos val="nextTo"/><c:crossAx val="${cross}"/><c:crosses val="autoZero"/></c:serAx>`;
const axes2 = catAx(1, 2) + valAx(2, 1);
const axes3 = catAx(1, 2) + valAx(2, 1) + serAx(3, 2);
const view3D = '<c:view3D><c:rotX val="15"/><c:rotY val="20"/><c:rAngAx val="0"/></c:view3D>';
const marker = '<c:marker><c:symbol val="circle"/><c:size val="5"/></c:marker>';
const noMarker = '<c:marker><c:symbol val="none"/></c:marker>';

function xy(k: number, bubble: boolean): string {
  const x = `<c:xVal><c:numRef><c:f>Sheet1!$A$2:$A$5</c:f>${numCache([1, 2, 3, 4])}</c:numRef></c:xVal>`;
  const y = `<c:yVal><c:numRef><c:f>Sheet1!$${COLS[k]}$2:$${COLS[k]}$5</c:f>${numCache(values(k))}</c:numRef></c:yVal>`;
  const size = bubble
    ? `<c:bubbleSize><c:numRef><c:f>Sheet1!$${COLS[k + 1]}$2:$${COLS[k + 1]}$5</c:f>${numCache(values(k + 1))}</c:numRef></c:bubbleSize><c:bubble3D val="1"/>`
    : '<c:smooth val="1"/>';
  return `<c:ser>${head(k)}${bubble ? '<c:invertIfNegative val="0"/>' : marker}${x}${y}${size}</c:ser>`;
}

/** Chart types by name: the `c:plotArea` content (and anything `c:chart` needs before it). */
export const GENERATED_CHARTS: Record<string, { before?: string; plot: string }> = {
  'column 3-D clustered (cylinder)': {
    before: view3D,
    plot: `<c:bar3DChart><c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/>${sers(3)}<c:gapWidth val="150"/><c:shape val="cylinder"/>${ids(1, 2, 3)}</c:bar3DChart>${axes3}`,
  },
  'bar 3-D 100 % stacked': {
    before: view3D,
    plot: `<c:bar3DChart><c:barDir val="bar"/><c:grouping val="percentStacked"/><c:varyColors val="0"/>${sers(3)}<c:gapWidth val="150"/><c:shape val="box"/>${ids(1, 2, 3)}</c:bar3DChart>${catAx(1, 2, 'l')}${valAx(2, 1, 'b')}${serAx(3, 2)}`,
  },
  'column stacked': {
    plot: `<c:barChart><c:barDir val="col"/><c:grouping val="stacked"/><c:varyColors val="0"/>${sers(3, '<c:invertIfNegative val="0"/>')}<c:gapWidth val="150"/><c:overlap val="100"/>${ids(1, 2)}</c:barChart>${axes2}`,
  },
  'line 3-D': {
    before: view3D,
    plot: `<c:line3DChart><c:grouping val="standard"/><c:varyColors val="0"/>${sers(3)}<c:gapDepth val="150"/>${ids(1, 2, 3)}</c:line3DChart>${axes3}`,
  },
  'line stacked with markers': {
    plot: `<c:lineChart><c:grouping val="stacked"/><c:varyColors val="0"/>${sers(3, marker, '<c:smooth val="0"/>')}<c:marker val="1"/>${ids(1, 2)}</c:lineChart>${axes2}`,
  },
  'area 3-D stacked': {
    before: view3D,
    plot: `<c:area3DChart><c:grouping val="stacked"/><c:varyColors val="0"/>${sers(3)}${ids(1, 2, 3)}</c:area3DChart>${axes3}`,
  },
  'area 100 % stacked': {
    plot: `<c:areaChart><c:grouping val="percentStacked"/><c:varyColors val="0"/>${sers(3)}${ids(1, 2)}</c:areaChart>${axes2}`,
  },
  'pie 3-D': {
    before: '<c:view3D><c:rotX val="30"/><c:rotY val="0"/><c:rAngAx val="0"/></c:view3D>',
    plot: `<c:pie3DChart><c:varyColors val="1"/>${sers(1)}</c:pie3DChart>`,
  },
  'pie of pie': {
    plot: `<c:ofPieChart><c:ofPieType val="pie"/><c:varyColors val="1"/>${sers(1)}<c:gapWidth val="100"/><c:secondPieSize val="75"/><c:serLines/></c:ofPieChart>`,
  },
  'bar of pie': {
    plot: `<c:ofPieChart><c:ofPieType val="bar"/><c:varyColors val="1"/>${sers(1)}<c:gapWidth val="100"/><c:splitType val="pos"/><c:splitPos val="2"/><c:secondPieSize val="75"/><c:serLines/></c:ofPieChart>`,
  },
  'doughnut exploded': {
    plot: `<c:doughnutChart><c:varyColors val="1"/>${sers(2, '<c:explosion val="10"/>')}<c:firstSliceAng val="0"/><c:holeSize val="50"/></c:doughnutChart>`,
  },
  'radar filled': {
    plot: `<c:radarChart><c:radarStyle val="filled"/><c:varyColors val="0"/>${sers(3)}${ids(1, 2)}</c:radarChart>${catAx(1, 2)}${valAx(2, 1, 'l', 'autoZero', 'between')}`,
  },
  'scatter smooth lines': {
    plot: `<c:scatterChart><c:scatterStyle val="smoothMarker"/><c:varyColors val="0"/>${xy(0, false)}${xy(1, false)}${ids(1, 2)}</c:scatterChart>${valAx(1, 2, 'b', 'autoZero', 'midCat')}${valAx(2, 1, 'l', 'autoZero', 'midCat')}`,
  },
  'bubble 3-D': {
    plot: `<c:bubbleChart><c:varyColors val="0"/>${xy(0, true)}${xy(2, true)}<c:bubbleScale val="100"/><c:showNegBubbles val="0"/>${ids(1, 2)}</c:bubbleChart>${valAx(1, 2, 'b', 'autoZero', 'midCat')}${valAx(2, 1, 'l', 'autoZero', 'midCat')}`,
  },
  'stock high-low-close': {
    plot: `<c:stockChart>${sers(3, noMarker)}<c:hiLowLines/>${ids(1, 2)}</c:stockChart>${axes2}`,
  },
  'stock open-high-low-close': {
    plot: `<c:stockChart>${sers(4, noMarker)}<c:hiLowLines/><c:upDownBars><c:gapWidth val="150"/><c:upBars/><c:downBars/></c:upDownBars>${ids(1, 2)}</c:stockChart>${axes2}`,
  },
  'stock volume-high-low-close': {
    plot: `<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/>${sers(1, '<c:invertIfNegative val="0"/>')}<c:gapWidth val="150"/>${ids(1, 2)}</c:barChart><c:stockChart>${sers(3, noMarker, '', 1)}<c:hiLowLines/>${ids(3, 4)}</c:stockChart>${catAx(1, 2)}${valAx(2, 1)}${catAx(3, 4, 'b', '<c:delete val="1"/>')}${valAx(4, 3, 'r', 'max')}`,
  },
  'surface 3-D': {
    before: view3D,
    plot: `<c:surface3DChart><c:wireframe val="0"/>${sers(3)}${ids(1, 2, 3)}</c:surface3DChart>${axes3}`,
  },
  'surface wireframe contour': {
    before:
      '<c:view3D><c:rotX val="90"/><c:rotY val="0"/><c:rAngAx val="0"/><c:perspective val="0"/></c:view3D>',
    plot: `<c:surfaceChart><c:wireframe val="1"/>${sers(3)}${ids(1, 2, 3)}</c:surfaceChart>${axes3}`,
  },
  'combination: column and line on a secondary axis': {
    plot: `<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/>${sers(2, '<c:invertIfNegative val="0"/>')}<c:gapWidth val="150"/>${ids(1, 2)}</c:barChart><c:lineChart><c:grouping val="standard"/><c:varyColors val="0"/>${ser(2, marker, '<c:smooth val="0"/>')}<c:marker val="1"/>${ids(3, 4)}</c:lineChart>${catAx(1, 2)}${valAx(2, 1)}${catAx(3, 4, 'b', '<c:delete val="1"/>')}${valAx(4, 3, 'r', 'max')}`,
  },
};

function chartPart(type: { before?: string; plot: string }): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<c:chartSpace ${C}><c:date1904 val="0"/><c:chart><c:autoTitleDeleted val="1"/>${type.before ?? ''}<c:plotArea><c:layout/>${type.plot}</c:plotArea><c:legend><c:legendPos val="r"/><c:overlay val="0"/></c:legend><c:plotVisOnly val="1"/></c:chart><c:externalData r:id="rId1"/></c:chartSpace>`;
}

const clusteredBars = (mid = ''): string =>
  `<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/>${sers(3, `<c:invertIfNegative val="0"/>${mid}`)}<c:gapWidth val="150"/>${ids(1, 2)}</c:barChart>${axes2}`;

/**
 * One chart per plot family whose data labels PowerPoint constrains differently ([MS-OI29500] 2.1.1456:
 * `c:dLblPos` by chart group and bar grouping), the 2-D forms the corpus has written the same way.
 */
export const PLOT_FAMILIES: Record<string, { before?: string; plot: string }> = {
  'bar clustered': { plot: clusteredBars() },
  'bar stacked': GENERATED_CHARTS['column stacked']!,
  'bar 100 % stacked': {
    plot: `<c:barChart><c:barDir val="bar"/><c:grouping val="percentStacked"/><c:varyColors val="0"/>${sers(3, '<c:invertIfNegative val="0"/>')}<c:gapWidth val="150"/><c:overlap val="100"/>${ids(1, 2)}</c:barChart>${catAx(1, 2, 'l')}${valAx(2, 1, 'b')}`,
  },
  'bar 3-D': GENERATED_CHARTS['column 3-D clustered (cylinder)']!,
  line: {
    plot: `<c:lineChart><c:grouping val="standard"/><c:varyColors val="0"/>${sers(3, marker, '<c:smooth val="0"/>')}<c:marker val="1"/>${ids(1, 2)}</c:lineChart>${axes2}`,
  },
  'line 3-D': GENERATED_CHARTS['line 3-D']!,
  stock: GENERATED_CHARTS['stock high-low-close']!,
  scatter: GENERATED_CHARTS['scatter smooth lines']!,
  bubble: GENERATED_CHARTS['bubble 3-D']!,
  pie: { plot: `<c:pieChart><c:varyColors val="1"/>${sers(1)}<c:firstSliceAng val="0"/></c:pieChart>` },
  'pie 3-D': GENERATED_CHARTS['pie 3-D']!,
  'pie of pie': GENERATED_CHARTS['pie of pie']!,
  doughnut: GENERATED_CHARTS['doughnut exploded']!,
  area: {
    plot: `<c:areaChart><c:grouping val="standard"/><c:varyColors val="0"/>${sers(3)}${ids(1, 2)}</c:areaChart>${axes2}`,
  },
  'area 3-D': GENERATED_CHARTS['area 3-D stacked']!,
  radar: GENERATED_CHARTS['radar filled']!,
  surface: GENERATED_CHARTS['surface 3-D']!,
  // Labels the template's designer deleted (`c:dLbls/c:delete`): a series holding them shows none.
  'bar clustered, labels deleted': { plot: clusteredBars('<c:dLbls><c:delete val="1"/></c:dLbls>') },
};

const PACKAGE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/package';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CHART_TYPE = 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml';

/** Sheet1 of the workbooks: series names in row 1 from B, categories in A from row 2, the values below. */
function sheetOf(series: number): Cell[][] {
  return [
    [' ', ...COLS.slice(0, series).map((_, k) => `Series ${k + 1}`)],
    ...CATS.map((name, i) => [name, ...COLS.slice(0, series).map((_, k) => values(k)[i]!)]),
  ];
}

/** A note beside the data, which a fill must leave where it is. */
export const WORKBOOK_NOTE = 'A note beside the data: filling the chart leaves it here.';
// Slide 1's workbook: three series over an Excel table (A1:D5) and a note at B8. The generated slides' own
// workbooks hold four series (stock open-high-low-close uses all four; the bubble sizes are the next series).
const BASE_WORKBOOK = await chartWorkbook(sheetOf(3), {
  table: { rows: 5, columns: 4 },
  notes: { B8: WORKBOOK_NOTE },
});
const GENERATED_WORKBOOK = await chartWorkbook(sheetOf(4), { table: { rows: 5, columns: 5 } });

/** The graphic frame of a chart (id 6, "Chart 5" unless named) in the layout's content placeholder. */
export function chartFrame(rId: string, name = 'Chart 5', id = 6): string {
  return (
    `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${id}" name="${name}"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvGraphicFramePr>` +
    '<p:xfrm><a:off x="457200" y="1600200"/><a:ext cx="8229600" cy="4525963"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">' +
    `<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="${rId}"/></a:graphicData></a:graphic></p:graphicFrame>`
  );
}

const TEXT = (size = ''): string =>
  `<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr${size}/></a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr>`;
/** Slide 1's chart: clustered columns, with text properties of its own on the legend and the whole chart. */
const BASE_CHART = chartPart({ plot: clusteredBars() })
  .replace(
    '<c:legend><c:legendPos val="r"/><c:overlay val="0"/></c:legend>',
    `<c:legend><c:legendPos val="r"/><c:layout/>${TEXT()}</c:legend>`,
  )
  .replace('<c:externalData', `${TEXT(' sz="1800"')}<c:externalData`);

let chartDeckBytes: Uint8Array | undefined;

/**
 * The owned chart template: one slide titled "Chart (2D)" with "Chart 5" (shape id 6), a clustered column chart
 * of three series ("Series 1".."Series 3") over four categories ("Category 1".."Category 4"), its embedded
 * workbook holding the same values under an Excel table, and a note at Sheet1!B8. A fresh copy each call.
 */
export function chartDeck(): Uint8Array {
  chartDeckBytes ??= oneSlideDeck({
    shapes: titleShape('Chart (2D)') + chartFrame('rId2'),
    rels: [['rId2', 'chart', '../charts/chart1.xml']],
    parts: {
      'ppt/charts/chart1.xml': { bytes: BASE_CHART, type: CHART_TYPE },
      'ppt/charts/_rels/chart1.xml.rels': {
        bytes: relationships([['rId1', PACKAGE_REL, '../embeddings/Microsoft_Excel_Worksheet1.xlsx']]),
        type: null,
      },
      'ppt/embeddings/Microsoft_Excel_Worksheet1.xlsx': { bytes: BASE_WORKBOOK, type: null },
    },
    defaults: { xlsx: XLSX },
  });
  return chartDeckBytes.slice();
}

/**
 * A deck with one slide per chart type of `charts` (by default every generated type), in its order, after the
 * chart deck's slide; every slide's chart is named "Chart 5" and has an embedded workbook of its own.
 */
export function generatedChartsDeck(
  charts: Record<string, { before?: string; plot: string }> = GENERATED_CHARTS,
): {
  bytes: Uint8Array;
  types: string[];
} {
  const files = unzipSync(chartDeck());
  const decode = (name: string): string => new TextDecoder().decode(files[name]);
  const slide = decode('ppt/slides/slide1.xml');
  const slideRels = decode('ppt/slides/_rels/slide1.xml.rels');
  let types = decode('[Content_Types].xml');
  let presentation = decode('ppt/presentation.xml');
  let presentationRels = decode('ppt/_rels/presentation.xml.rels');
  const names = Object.keys(charts);
  const ids: string[] = [];
  names.forEach((name, i) => {
    const n = i + 2;
    files[`ppt/slides/slide${n}.xml`] = strToU8(slide);
    files[`ppt/slides/_rels/slide${n}.xml.rels`] = strToU8(
      slideRels.replace('charts/chart1.xml', `charts/chart${n}.xml`),
    );
    files[`ppt/charts/chart${n}.xml`] = strToU8(chartPart(charts[name]!));
    files[`ppt/charts/_rels/chart${n}.xml.rels`] = strToU8(
      relationships([['rId1', PACKAGE_REL, `../embeddings/Generated_Worksheet${n}.xlsx`]]),
    );
    files[`ppt/embeddings/Generated_Worksheet${n}.xlsx`] = GENERATED_WORKBOOK.slice();
    types = types.replace(
      '</Types>',
      `<Override PartName="/ppt/slides/slide${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/><Override PartName="/ppt/charts/chart${n}.xml" ContentType="${CHART_TYPE}"/></Types>`,
    );
    presentationRels = presentationRels.replace(
      '</Relationships>',
      `<Relationship Id="rIdGen${n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide${n}.xml"/></Relationships>`,
    );
    ids.push(`<p:sldId id="${300 + n}" r:id="rIdGen${n}"/>`);
  });
  presentation = presentation.replace('</p:sldIdLst>', `${ids.join('')}</p:sldIdLst>`);
  files['[Content_Types].xml'] = strToU8(types);
  files['ppt/presentation.xml'] = strToU8(presentation);
  files['ppt/_rels/presentation.xml.rels'] = strToU8(presentationRels);
  return { bytes: new Uint8Array(zipSync(files)), types: names };
}
