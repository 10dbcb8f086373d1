/**
 * The plot groups of a classic chart part (`c:plotArea` children, ECMA-376 Part 1 §21.2.2, dml-chart.xsd) and
 * what each allows: the child order of its series (insert in schema order: docs/powerpoint-rules.md
 * "Chart XML order and series data"), where its series sit among the group's own children, how many series it
 * takes, and which data label positions PowerPoint accepts for its series (an invalid `c:dLblPos` is schema-valid
 * but makes PowerPoint report a corrupt slide: docs/powerpoint-rules.md "Changing series and point counts"). The
 * positions are Office's, [MS-OI29500] 2.1.1456: pie, 3-D pie and pie-of-pie take bestFit/outEnd/inEnd/ctr;
 * clustered bars inBase/inEnd/outEnd/ctr, stacked bars the same without outEnd; bubble, line, scatter and stock
 * l/r/t/b/ctr; area, 3-D area, 3-D bar, doughnut, 3-D line and radar none. Surface series have no labels at all
 * (CT_SurfaceSer has no c:dLbls).
 */
import { child, childElements, type XmlElement } from '../../xml/index.js';
import type { SeriesKind } from '../series-targets.js';

export type { SeriesKind };

const SHARED = ['c:idx', 'c:order', 'c:tx', 'c:spPr'];
const CAT_VAL = ['c:cat', 'c:val'];
/** CT_BarSer, CT_LineSer, CT_PieSer, CT_AreaSer, CT_RadarSer, CT_ScatterSer, CT_BubbleSer, CT_SurfaceSer. */
const BAR_SER = [
  ...SHARED,
  'c:invertIfNegative',
  'c:pictureOptions',
  'c:dPt',
  'c:dLbls',
  'c:trendline',
  'c:errBars',
  ...CAT_VAL,
  'c:shape',
  'c:extLst',
];
const LINE_SER = [
  ...SHARED,
  'c:marker',
  'c:dPt',
  'c:dLbls',
  'c:trendline',
  'c:errBars',
  ...CAT_VAL,
  'c:smooth',
  'c:extLst',
];
const PIE_SER = [...SHARED, 'c:explosion', 'c:dPt', 'c:dLbls', ...CAT_VAL, 'c:extLst'];
const AREA_SER = [
  ...SHARED,
  'c:pictureOptions',
  'c:dPt',
  'c:dLbls',
  'c:trendline',
  'c:errBars',
  ...CAT_VAL,
  'c:extLst',
];
const RADAR_SER = [...SHARED, 'c:marker', 'c:dPt', 'c:dLbls', ...CAT_VAL, 'c:extLst'];
const SCATTER_SER = [
  ...SHARED,
  'c:marker',
  'c:dPt',
  'c:dLbls',
  'c:trendline',
  'c:errBars',
  'c:xVal',
  'c:yVal',
  'c:smooth',
  'c:extLst',
];
const BUBBLE_SER = [
  ...SHARED,
  'c:invertIfNegative',
  'c:dPt',
  'c:dLbls',
  'c:trendline',
  'c:errBars',
  'c:xVal',
  'c:yVal',
  'c:bubbleSize',
  'c:bubble3D',
  'c:extLst',
];
const SURFACE_SER = [...SHARED, ...CAT_VAL, 'c:extLst'];

const LINE_POSITIONS = ['ctr', 'l', 'r', 't', 'b'];
const PIE_POSITIONS = ['bestFit', 'ctr', 'inEnd', 'outEnd'];

export interface PlotGroupInfo {
  /** A name for messages ("a pie chart"). */
  label: string;
  kind: SeriesKind;
  seriesOrder: readonly string[];
  /** Series this group can hold at most (a pie draws one). */
  maxSeries: number;
  /** ST_DLblPos values PowerPoint accepts for the group; empty: none (the element must not be written). */
  labelPositions(group: XmlElement): readonly string[];
}

const none = (): readonly string[] => [];

const GROUPS: Record<string, PlotGroupInfo> = {
  'c:barChart': {
    label: 'a bar or column chart',
    kind: 'category',
    seriesOrder: BAR_SER,
    maxSeries: Infinity,
    // Stacked bars have no "outside end" ([MS-OI29500] 2.1.1456).
    labelPositions: (group) =>
      valOf(group, 'c:grouping') === 'clustered' || valOf(group, 'c:grouping') === undefined
        ? ['ctr', 'inBase', 'inEnd', 'outEnd']
        : ['ctr', 'inBase', 'inEnd'],
  },
  'c:bar3DChart': {
    label: 'a 3-D bar or column chart',
    kind: 'category',
    seriesOrder: BAR_SER,
    maxSeries: Infinity,
    labelPositions: none,
  },
  'c:lineChart': {
    label: 'a line chart',
    kind: 'category',
    seriesOrder: LINE_SER,
    maxSeries: Infinity,
    labelPositions: () => LINE_POSITIONS,
  },
  'c:line3DChart': {
    label: 'a 3-D line chart',
    kind: 'category',
    seriesOrder: LINE_SER,
    maxSeries: Infinity,
    labelPositions: none,
  },
  'c:stockChart': {
    label: 'a stock chart',
    kind: 'category',
    seriesOrder: LINE_SER,
    maxSeries: 4,
    labelPositions: () => LINE_POSITIONS,
  },
  'c:radarChart': {
    label: 'a radar chart',
    kind: 'category',
    seriesOrder: RADAR_SER,
    maxSeries: Infinity,
    labelPositions: none,
  },
  'c:scatterChart': {
    label: 'a scatter chart',
    kind: 'scatter',
    seriesOrder: SCATTER_SER,
    maxSeries: Infinity,
    labelPositions: () => LINE_POSITIONS,
  },
  'c:pieChart': {
    label: 'a pie chart',
    kind: 'category',
    seriesOrder: PIE_SER,
    maxSeries: 1,
    labelPositions: () => PIE_POSITIONS,
  },
  'c:pie3DChart': {
    label: 'a 3-D pie chart',
    kind: 'category',
    seriesOrder: PIE_SER,
    maxSeries: 1,
    labelPositions: () => PIE_POSITIONS,
  },
  'c:ofPieChart': {
    label: 'a pie-of-pie chart',
    kind: 'category',
    seriesOrder: PIE_SER,
    maxSeries: 1,
    labelPositions: () => PIE_POSITIONS,
  },
  'c:doughnutChart': {
    label: 'a doughnut chart',
    kind: 'category',
    seriesOrder: PIE_SER,
    maxSeries: Infinity,
    labelPositions: none,
  },
  'c:areaChart': {
    label: 'an area chart',
    kind: 'category',
    seriesOrder: AREA_SER,
    maxSeries: Infinity,
    labelPositions: none,
  },
  'c:area3DChart': {
    label: 'a 3-D area chart',
    kind: 'category',
    seriesOrder: AREA_SER,
    maxSeries: Infinity,
    labelPositions: none,
  },
  'c:surfaceChart': {
    label: 'a surface chart',
    kind: 'category',
    seriesOrder: SURFACE_SER,
    maxSeries: Infinity,
    labelPositions: none,
  },
  'c:surface3DChart': {
    label: 'a 3-D surface chart',
    kind: 'category',
    seriesOrder: SURFACE_SER,
    maxSeries: Infinity,
    labelPositions: none,
  },
  'c:bubbleChart': {
    label: 'a bubble chart',
    kind: 'bubble',
    seriesOrder: BUBBLE_SER,
    maxSeries: Infinity,
    labelPositions: () => LINE_POSITIONS,
  },
};

/** Group children that come before the series (every other group child comes after them). */
const BEFORE_SERIES = new Set([
  'c:barDir',
  'c:grouping',
  'c:varyColors',
  'c:radarStyle',
  'c:scatterStyle',
  'c:ofPieType',
  'c:wireframe',
]);

export function plotGroupInfo(name: string): PlotGroupInfo | undefined {
  return GROUPS[name];
}

/** The plot groups of a `c:plotArea`, in document order. */
export function plotGroups(plotArea: XmlElement): XmlElement[] {
  return childElements(plotArea).filter((el) => el.name in GROUPS);
}

/** Inserts `series` as the group's last series (before dLbls, gapWidth, axId …), in the order given. */
export function appendSeries(group: XmlElement, series: readonly XmlElement[]): void {
  const children = group.children;
  let at = 0;
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    if (node.kind !== 'element') continue;
    if (node.name === 'c:ser' || BEFORE_SERIES.has(node.name)) at = i + 1;
  }
  group.children = [...children.slice(0, at), ...series, ...children.slice(at)];
}

export function valOf(el: XmlElement, name: string): string | undefined {
  return child(el, name)?.attrs.val;
}

/** The PowerPoint name of a group for inspect (`bar (clustered)`, `line (3-D)`, `pie of pie`). */
export function describeGroup(group: XmlElement): string {
  const base = group.name.slice(2).replace(/Chart$/, '');
  const details: string[] = [];
  const barDir = valOf(group, 'c:barDir');
  const grouping = valOf(group, 'c:grouping');
  if (barDir) details.push(barDir === 'col' ? 'column' : 'bar');
  if (grouping && grouping !== 'standard') details.push(grouping);
  const style = valOf(group, 'c:scatterStyle') ?? valOf(group, 'c:radarStyle') ?? valOf(group, 'c:ofPieType');
  if (style) details.push(style);
  if (valOf(group, 'c:wireframe') === '1') details.push('wireframe');
  return details.length > 0 ? `${base} (${details.join(', ')})` : base;
}
