/**
 * The owned templates and files the docs' shape examples run on (test/engine/docs-examples.test.ts), each shape
 * under the name the docs give it:
 * - `charts.pptx`: slide 0 "Chart 5" (clustered columns, chart-templates.ts), slide 1 "Trial results" (scatter),
 *   slide 2 "Market sizes" (bubble), slide 3 "Orders" (a line over dates: a date axis, categories formatted m/d/yy
 *   in the caches and as dates in the workbook).
 * - `chart-ex.pptx`: slide 1 "Scores" (histogram), slide 2 "Trials" (box and whisker), after the sunburst.
 * - `pictures.pptx`: one slide with the pictures "Logo" (a square PNG) and "Hero photo" (a 4:3 one).
 * - the images the examples name: `logo.png`, `team.jpg`.
 */
import { strFromU8, strToU8 } from 'fflate';
import { generatedChartExDeck } from './chart-ex-deck.js';
import { GENERATED_CHART_EX } from './chart-ex-templates.js';
import { chartWorkbook } from './chart-workbook.js';
import { GENERATED_CHARTS, generatedChartsDeck, PLOT_FAMILIES } from './chart-templates.js';
import { oneSlideDeck, titleShape } from './one-slide-deck.js';
import { editPackage } from './package-edit.js';
import { BLUE, GREEN, jpeg, png } from './test-images.js';

const DATES = ['2025-10-31', '2025-11-30', '2025-12-31', '2026-01-31'].map((d) => new Date(`${d}T00:00:00Z`));
/** Excel's date serial of a UTC date (1900 date system). */
const serial = (d: Date): number => Math.round((d.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000);
const ORDERS = [96, 104, 118, 111];

const pts = (values: readonly (string | number)[]): string =>
  `<c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}`;

/** A line chart over dates: the category cache is numbers in a date format, the axis a `c:dateAx`. */
const DATE_LINE = {
  plot:
    '<c:lineChart><c:grouping val="standard"/><c:varyColors val="0"/><c:ser><c:idx val="0"/><c:order val="0"/>' +
    `<c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache>${pts(['Orders'])}</c:strCache></c:strRef></c:tx>` +
    '<c:marker><c:symbol val="none"/></c:marker>' +
    `<c:cat><c:numRef><c:f>Sheet1!$A$2:$A$5</c:f><c:numCache><c:formatCode>m/d/yy</c:formatCode>${pts(DATES.map(serial))}</c:numCache></c:numRef></c:cat>` +
    `<c:val><c:numRef><c:f>Sheet1!$B$2:$B$5</c:f><c:numCache><c:formatCode>General</c:formatCode>${pts(ORDERS)}</c:numCache></c:numRef></c:val>` +
    '<c:smooth val="0"/></c:ser><c:marker val="1"/><c:axId val="1"/><c:axId val="2"/></c:lineChart>' +
    '<c:dateAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:axPos val="b"/><c:numFmt formatCode="m/d/yy" sourceLinked="1"/>' +
    '<c:tickLblPos val="nextTo"/><c:crossAx val="2"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblOffset val="100"/><c:baseTimeUnit val="months"/></c:dateAx>' +
    '<c:valAx><c:axId val="2"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:axPos val="l"/><c:majorGridlines/><c:numFmt formatCode="General" sourceLinked="1"/>' +
    '<c:tickLblPos val="nextTo"/><c:crossAx val="1"/><c:crosses val="autoZero"/><c:crossBetween val="between"/></c:valAx>',
};
const DATE_WORKBOOK = await chartWorkbook([[' ', 'Orders'], ...DATES.map((d, i) => [d, ORDERS[i]!])]);

/** Renames "Chart 5" (and its fallback picture) on slide part `slide` of `bytes`. */
function renameChart(files: Record<string, Uint8Array>, slide: number, name: string): void {
  const item = `ppt/slides/slide${slide}.xml`;
  files[item] = strToU8(strFromU8(files[item]!).replaceAll('name="Chart 5"', `name="${name}"`));
}

function chartsDeck(): Uint8Array {
  const deck = generatedChartsDeck({
    scatter: PLOT_FAMILIES.scatter!,
    bubble: GENERATED_CHARTS['bubble 3-D']!,
    'date line': DATE_LINE,
  }).bytes;
  return editPackage(deck, (files) => {
    renameChart(files, 2, 'Trial results');
    renameChart(files, 3, 'Market sizes');
    renameChart(files, 4, 'Orders');
    files['ppt/embeddings/Generated_Worksheet4.xlsx'] = DATE_WORKBOOK.slice();
  });
}

function chartExDeck(): Uint8Array {
  const deck = generatedChartExDeck({
    histogram: GENERATED_CHART_EX.histogram!,
    'box and whisker': GENERATED_CHART_EX['box and whisker']!,
  }).bytes;
  return editPackage(deck, (files) => {
    renameChart(files, 2, 'Scores');
    renameChart(files, 3, 'Trials');
  });
}

const EMU_PER_PX = 9525;
const picture = (id: number, name: string, rId: string, x: number, w: number, h: number): string =>
  `<p:pic><p:nvPicPr><p:cNvPr id="${id}" name="${name}"/><p:cNvPicPr><a:picLocks noChangeAspect="1"/></p:cNvPicPr><p:nvPr/></p:nvPicPr>` +
  `<p:blipFill><a:blip r:embed="${rId}"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>` +
  `<p:spPr><a:xfrm><a:off x="${x}" y="1600200"/><a:ext cx="${w * EMU_PER_PX}" cy="${h * EMU_PER_PX}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`;

const LOGO_IMAGE = await png(96, 96, BLUE);
const HERO_IMAGE = await png(384, 288, GREEN);

function picturesDeck(): Uint8Array {
  return oneSlideDeck({
    layout: 6,
    shapes:
      titleShape('Pictures') +
      picture(3, 'Logo', 'rId2', 457200, 96, 96) +
      picture(4, 'Hero photo', 'rId3', 2286000, 384, 288),
    rels: [
      ['rId2', 'image', '../media/image1.png'],
      ['rId3', 'image', '../media/image2.png'],
    ],
    parts: {
      'ppt/media/image1.png': { bytes: LOGO_IMAGE, type: null },
      'ppt/media/image2.png': { bytes: HERO_IMAGE, type: null },
    },
    defaults: { png: 'image/png' },
  });
}

/** The example templates and images by the file names the docs' payloads use (or this module gives them). */
export const EXAMPLE_FILES: ReadonlyMap<string, Uint8Array> = new Map([
  ['charts.pptx', chartsDeck()],
  ['chart-ex.pptx', chartExDeck()],
  ['pictures.pptx', picturesDeck()],
  ['logo.png', await png(120, 60, BLUE)],
  ['team.jpg', await jpeg(640, 360, GREEN)],
]);
