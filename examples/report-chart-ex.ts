/**
 * The newer chart types of examples/report.pptx (make-report-template.ts): a histogram "Scores" and a box and
 * whisker chart "Trials", written from the chartex schema (MS-ODRAWXML §2.24) as PowerPoint 2016 writes them: a
 * chartEx part with its data, an embedded workbook holding the same (report-charts.ts writes it), and on the slide
 * `mc:AlternateContent` with the chartEx frame and a fallback picture for readers without chartEx. The picture is
 * drawn here from the same data, so such a reader (LibreOffice among them) shows the chart as it is.
 */
import sharp from 'sharp';
import type { ReportChart } from './report-charts.js';

const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:cx="http://schemas.microsoft.com/office/drawing/2014/chartex"';

export interface ChartExChart {
  /** The `cx:data` of `cx:chartData`. */
  data: string;
  /** The `cx:plotArea`. */
  plotArea: string;
  sheet: ReportChart['sheet'];
  /** The fallback picture's bars or boxes, drawn as SVG. */
  fallback: string;
}

const numLvl = (values: readonly number[]): string =>
  `<cx:lvl ptCount="${values.length}" formatCode="General">${values.map((v, i) => `<cx:pt idx="${i}">${v}</cx:pt>`).join('')}</cx:lvl>`;
const strLvl = (values: readonly string[]): string =>
  `<cx:lvl ptCount="${values.length}">${values.map((v, i) => `<cx:pt idx="${i}">${v}</cx:pt>`).join('')}</cx:lvl>`;
const series = (layout: string, name: string, nameRef: string, inner: string): string =>
  `<cx:series layoutId="${layout}" uniqueId="{6D0C1E00-0000-4000-8000-0000000000${layout.length}}" formatIdx="0">` +
  `<cx:tx><cx:txData><cx:f>${nameRef}</cx:f><cx:v>${name}</cx:v></cx:txData></cx:tx>${inner}</cx:series>`;
const axes =
  '<cx:axis id="0"><cx:catScaling gapWidth="0.5"/><cx:tickLabels/></cx:axis>' +
  '<cx:axis id="1"><cx:valScaling/><cx:majorGridlines/><cx:tickLabels/></cx:axis>';

const SCORES = [52, 58, 61, 64, 66, 68, 70, 72, 75, 77, 81, 84, 88, 93];
/** SCORES in bins of 10 from the lowest, closed on the right, as the chart's binning draws them. */
const BINS = [3, 5, 3, 2, 1];

/** "Scores": exam scores, binned by PowerPoint. */
export const SCORES_CHART: ChartExChart = {
  data: `<cx:data id="0"><cx:numDim type="val"><cx:f>Sheet1!$A$2:$A$${SCORES.length + 1}</cx:f>${numLvl(SCORES)}</cx:numDim></cx:data>`,
  plotArea: `<cx:plotArea><cx:plotAreaRegion>${series('clusteredColumn', 'Scores', 'Sheet1!$A$1', '<cx:dataId val="0"/><cx:layoutPr><cx:binning intervalClosed="r"><cx:binSize>10</cx:binSize></cx:binning></cx:layoutPr>')}</cx:plotAreaRegion>${axes}</cx:plotArea>`,
  sheet: [['Scores'], ...SCORES.map((s) => [s])],
  fallback: BINS.map(
    (n, i) => `<rect x="${90 + i * 150}" y="${480 - n * 84}" width="146" height="${n * 84}" fill="#2F6FDE"/>`,
  ).join(''),
};

const GROUPS = ['North', 'North', 'North', 'North', 'North', 'South', 'South', 'South', 'South', 'South'];
const TRIAL = [12, 15, 18, 21, 30, 9, 11, 14, 16, 22];

/** "Trials": one box per region. */
export const TRIALS_CHART: ChartExChart = {
  data:
    `<cx:data id="0"><cx:strDim type="cat"><cx:f>Sheet1!$A$2:$A$${GROUPS.length + 1}</cx:f>${strLvl(GROUPS)}</cx:strDim>` +
    `<cx:numDim type="val"><cx:f>Sheet1!$B$2:$B$${TRIAL.length + 1}</cx:f>${numLvl(TRIAL)}</cx:numDim></cx:data>`,
  plotArea: `<cx:plotArea><cx:plotAreaRegion>${series('boxWhisker', 'Trial 1', 'Sheet1!$B$1', '<cx:dataId val="0"/><cx:layoutPr><cx:visibility meanLine="0" meanMarker="1" nonoutliers="0" outliers="1"/><cx:statistics quartileMethod="exclusive"/></cx:layoutPr>')}</cx:plotAreaRegion>${axes}</cx:plotArea>`,
  sheet: [[' ', 'Trial 1'], ...GROUPS.map((g, i) => [g, TRIAL[i]!])],
  // Whiskers from min to max, boxes from the first to the third quartile, a line at the median (× 12 px per unit).
  fallback: [
    [12, 13.5, 18, 25.5, 30, 150],
    [9, 10, 14, 19, 22, 500],
  ]
    .map(
      ([min, q1, median, q3, max, x]) =>
        `<line x1="${x! + 60}" x2="${x! + 60}" y1="${480 - max! * 14}" y2="${480 - min! * 14}" stroke="#1F2933" stroke-width="3"/>` +
        `<rect x="${x}" y="${480 - q3! * 14}" width="120" height="${(q3! - q1!) * 14}" fill="#2F6FDE" stroke="#1F2933" stroke-width="2"/>` +
        `<line x1="${x}" x2="${x! + 120}" y1="${480 - median! * 14}" y2="${480 - median! * 14}" stroke="#fff" stroke-width="4"/>`,
    )
    .join(''),
};

/** The chartEx part: its data, then the chart. */
export function chartExPart(chart: ChartExChart): string {
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<cx:chartSpace ${NS}><cx:chartData><cx:externalData r:id="rId1" cx:autoUpdate="0"/>${chart.data}</cx:chartData>` +
    `<cx:chart>${chart.plotArea}</cx:chart></cx:chartSpace>`
  );
}

/** The fallback picture: the chart drawn on a white 800 × 500 canvas with a base line. */
export async function fallbackPng(chart: ChartExChart): Promise<Uint8Array> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="500" viewBox="0 0 800 500"><rect width="800" height="500" fill="#fff"/>' +
    `${chart.fallback}<line x1="60" x2="780" y1="480" y2="480" stroke="#8A949E" stroke-width="2"/></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

const XFRM = (x: number, y: number, cx: number, cy: number): string =>
  `<a:off x="${x}" y="${y}"/><a:ext cx="${cx}" cy="${cy}"/>`;

/** The slide's frame: the chartEx graphic frame (relationship rId2), else the fallback picture (rId3). */
export function chartExFrame(name: string, x: number, y: number, cx: number, cy: number): string {
  const xfrm = XFRM(x, y, cx, cy);
  return (
    '<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice xmlns:cx1="http://schemas.microsoft.com/office/drawing/2015/9/8/chartex" Requires="cx1">' +
    `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="5" name="${name}"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm>${xfrm}</p:xfrm>` +
    '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/drawing/2014/chartex"><cx:chart xmlns:cx="http://schemas.microsoft.com/office/drawing/2014/chartex" r:id="rId2"/></a:graphicData></a:graphic></p:graphicFrame></mc:Choice>' +
    `<mc:Fallback><p:pic><p:nvPicPr><p:cNvPr id="5" name="${name}"/><p:cNvPicPr><a:picLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvPicPr><p:nvPr/></p:nvPicPr>` +
    `<p:blipFill><a:blip r:embed="rId3"/><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr><a:xfrm>${xfrm}</a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic></mc:Fallback></mc:AlternateContent>`
  );
}
