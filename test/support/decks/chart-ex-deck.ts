/**
 * The owned chartEx templates as decks, on the layouts template's master (one-slide-deck.ts): slide 1 holds
 * SUNBURST, and each layout of GENERATED_CHART_EX gets a slide of its own after it. Every slide holds "Chart 5"
 * (shape id 6) as PowerPoint writes a chartEx chart: `mc:AlternateContent` with the chartEx graphic frame and a
 * fallback picture for readers without chartEx, a chart part of its own and its own workbook, written with ExcelJS
 * from the template's `sheet` so its cells hold what the part's caches hold.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import {
  chartExPart,
  GENERATED_CHART_EX,
  SUNBURST,
  workbookWith,
  type ChartExTemplate,
} from './chart-ex-templates.js';
import { chartWorkbook } from './chart-workbook.js';
import { oneSlideDeck, relationships, titleShape } from './one-slide-deck.js';
import { GREEN, png } from './test-images.js';

const CHART_EX_REL = 'http://schemas.microsoft.com/office/2014/relationships/chartEx';
const PACKAGE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/package';
const CHART_EX_TYPE = 'application/vnd.ms-office.chartex+xml';
const SLIDE_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Each known template's workbook, written once; a template made by a test gets Sheet1 of the sunburst's rewritten. */
const WORKBOOKS = new Map<ChartExTemplate, Uint8Array>();
for (const t of [SUNBURST, ...Object.values(GENERATED_CHART_EX)])
  WORKBOOKS.set(t, await chartWorkbook(t.sheet));
const FALLBACK = await png(320, 200, GREEN);

function workbookOf(t: ChartExTemplate): Uint8Array {
  return WORKBOOKS.get(t)?.slice() ?? workbookWith(WORKBOOKS.get(SUNBURST)!, t.sheet);
}

const XFRM = '<a:off x="457200" y="1600200"/><a:ext cx="8229600" cy="4525963"/>';
/** "Chart 5": the chartEx frame (relationship rId2), and the fallback picture (rId3). */
const FRAME =
  '<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice xmlns:cx1="http://schemas.microsoft.com/office/drawing/2015/9/8/chartex" Requires="cx1">' +
  `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="6" name="Chart 5"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm>${XFRM}</p:xfrm>` +
  '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/drawing/2014/chartex"><cx:chart xmlns:cx="http://schemas.microsoft.com/office/drawing/2014/chartex" r:id="rId2"/></a:graphicData></a:graphic></p:graphicFrame></mc:Choice>' +
  '<mc:Fallback><p:pic><p:nvPicPr><p:cNvPr id="6" name="Chart 5"/><p:cNvPicPr><a:picLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvPicPr><p:nvPr/></p:nvPicPr>' +
  `<p:blipFill><a:blip r:embed="rId3"/><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr><a:xfrm>${XFRM}</a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic></mc:Fallback></mc:AlternateContent>`;

/** The parts of chart `n`: its chartEx part, its relationships and its workbook. */
function chartParts(n: number, t: ChartExTemplate): Record<string, Uint8Array> {
  return {
    [`ppt/charts/chartEx${n}.xml`]: strToU8(chartExPart(t)),
    [`ppt/charts/_rels/chartEx${n}.xml.rels`]: strToU8(
      relationships([['rId1', PACKAGE_REL, `../embeddings/Microsoft_Excel_Worksheet${n}.xlsx`]]),
    ),
    [`ppt/embeddings/Microsoft_Excel_Worksheet${n}.xlsx`]: workbookOf(t),
  };
}

let sunburstBytes: Uint8Array | undefined;

/** The deck of one slide titled "Sunburst" whose "Chart 5" is SUNBURST. A fresh copy each call. */
export function sunburstDeck(): Uint8Array {
  sunburstBytes ??= oneSlideDeck({
    layout: 6,
    shapes: titleShape('Sunburst') + FRAME,
    rels: [
      ['rId2', CHART_EX_REL, '../charts/chartEx1.xml'],
      ['rId3', 'image', '../media/image1.png'],
    ],
    parts: {
      ...Object.fromEntries(
        Object.entries(chartParts(1, SUNBURST)).map(([name, bytes]) => [
          name,
          { bytes, type: name.endsWith('chartEx1.xml') ? CHART_EX_TYPE : null },
        ]),
      ),
      'ppt/media/image1.png': { bytes: FALLBACK, type: null },
    },
    defaults: { xlsx: XLSX, png: 'image/png' },
  });
  return sunburstBytes.slice();
}

/**
 * A deck whose slide 1 is the sunburst deck's and whose next slides hold one chartEx chart each, in `charts`
 * order; every chart is named "Chart 5".
 */
export function generatedChartExDeck(charts: Record<string, ChartExTemplate> = GENERATED_CHART_EX): {
  bytes: Uint8Array;
  types: string[];
} {
  const files = unzipSync(sunburstDeck());
  const text = (name: string): string => strFromU8(files[name]!);
  const slide = files['ppt/slides/slide1.xml']!;
  const slideRels = text('ppt/slides/_rels/slide1.xml.rels');
  let types = text('[Content_Types].xml');
  let presentationRels = text('ppt/_rels/presentation.xml.rels');
  const names = Object.keys(charts);
  const ids: string[] = [];
  names.forEach((name, i) => {
    const n = i + 2;
    files[`ppt/slides/slide${n}.xml`] = slide;
    files[`ppt/slides/_rels/slide${n}.xml.rels`] = strToU8(
      slideRels.replace('charts/chartEx1.xml', `charts/chartEx${n}.xml`),
    );
    Object.assign(files, chartParts(n, charts[name]!));
    types = types.replace(
      '</Types>',
      `<Override PartName="/ppt/slides/slide${n}.xml" ContentType="${SLIDE_TYPE}"/><Override PartName="/ppt/charts/chartEx${n}.xml" ContentType="${CHART_EX_TYPE}"/></Types>`,
    );
    presentationRels = presentationRels.replace(
      '</Relationships>',
      `<Relationship Id="rIdGen${n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide${n}.xml"/></Relationships>`,
    );
    ids.push(`<p:sldId id="${300 + n}" r:id="rIdGen${n}"/>`);
  });
  files['[Content_Types].xml'] = strToU8(types);
  files['ppt/presentation.xml'] = strToU8(
    text('ppt/presentation.xml').replace('</p:sldIdLst>', `${ids.join('')}</p:sldIdLst>`),
  );
  files['ppt/_rels/presentation.xml.rels'] = strToU8(presentationRels);
  return { bytes: new Uint8Array(zipSync(files)), types: names };
}
