/**
 * Chart `settings` (docs/payload-charts.md, the hosted API's names): title, fonts, chart area fill, legend,
 * data labels, number format and axis titles, written into the chart part in schema order (dml-chart.xsd).
 * An option that does not apply to the chart is skipped with a warning, never written: a legend position when
 * the chart draws no legend, a data label position the plot type does not allow (PowerPoint refuses a file with
 * an invalid `c:dLblPos`, docs/powerpoint-rules.md "Changing series and point counts"), an axis title on a chart
 * without axes.
 */
import type { ChartSettings, RunProps, ShapeSettings } from '../../payload/model.js';
import { SHAPE_PROPERTIES_ORDER } from '../../shapes/shape-properties.js';
import { PARAGRAPH_PROPERTIES_ORDER } from '../../text/paragraph-properties.js';
import { setSolidFill } from '../../shapes/solid-fill.js';
import { applyRunProps } from '../../text/run-properties.js';
import {
  child,
  childElements,
  cloneElement,
  descendants,
  element,
  insertInOrder,
  removeNode,
  text,
  type XmlElement,
} from '../../xml/index.js';
import { plotGroupInfo, plotGroups } from './plot-groups.js';

/**
 * CT_ChartSpace, CT_Chart, CT_Title, CT_Legend, CT_DLbls child orders (ECMA-376 Part 1 §21.2;
 * docs/powerpoint-rules.md "Chart XML order and series data").
 */
const CHART_SPACE_ORDER = [
  'c:date1904',
  'c:lang',
  'c:roundedCorners',
  'mc:AlternateContent',
  'c:style',
  'c:clrMapOvr',
  'c:pivotSource',
  'c:protection',
  'c:chart',
  'c:spPr',
  'c:txPr',
  'c:externalData',
  'c:printSettings',
  'c:userShapes',
  'c:extLst',
];
export const CHART_ORDER = [
  'c:title',
  'c:autoTitleDeleted',
  'c:pivotFmts',
  'c:view3D',
  'c:floor',
  'c:sideWall',
  'c:backWall',
  'c:plotArea',
  'c:legend',
  'c:plotVisOnly',
  'c:dispBlanksAs',
  'c:showDLblsOverMax',
  'c:extLst',
];
const TITLE_ORDER = ['c:tx', 'c:layout', 'c:overlay', 'c:spPr', 'c:txPr', 'c:extLst'];
const LEGEND_ORDER = [
  'c:legendPos',
  'c:legendEntry',
  'c:layout',
  'c:overlay',
  'c:spPr',
  'c:txPr',
  'c:extLst',
];
const DLBLS_ORDER = [
  'c:dLbl',
  'c:delete',
  'c:numFmt',
  'c:spPr',
  'c:txPr',
  'c:dLblPos',
  'c:showLegendKey',
  'c:showVal',
  'c:showCatName',
  'c:showSerName',
  'c:showPercent',
  'c:showBubbleSize',
  'c:separator',
  'c:showLeaderLines',
  'c:leaderLines',
  'c:extLst',
];
/** CT_CatAx / CT_ValAx / CT_DateAx share their head: the title comes after the gridlines. */
export const AXIS_ORDER = [
  'c:axId',
  'c:scaling',
  'c:delete',
  'c:axPos',
  'c:majorGridlines',
  'c:minorGridlines',
  'c:title',
  'c:numFmt',
  'c:majorTickMark',
  'c:minorTickMark',
  'c:tickLblPos',
  'c:spPr',
  'c:txPr',
  'c:crossAx',
];
const FLAGS = [
  'c:showLegendKey',
  'c:showVal',
  'c:showCatName',
  'c:showSerName',
  'c:showPercent',
  'c:showBubbleSize',
];

type Warn = (message: string) => void;

export function applyChartSettings(root: XmlElement, settings: ShapeSettings, warn: Warn): void {
  const chart = child(root, 'c:chart');
  if (!chart) return;
  const s: ChartSettings = settings.chart ?? {};
  if (settings.fillColor !== undefined)
    setSolidFill(spPrOf(root, CHART_SPACE_ORDER), settings.fillColor, SHAPE_PROPERTIES_ORDER);
  if (s.title !== undefined) setTitle(chart, s.title);
  if (s.font !== undefined || s.fontSizePt !== undefined) setChartFont(root, chart, s);
  applyLegend(chart, s, warn);
  applyDataLabels(chart, s, warn);
  if (s.numberFormat !== undefined) setNumberFormat(chart, s.numberFormat);
  if (s.categoryAxisTitle !== undefined) setAxisTitle(chart, 'category', s.categoryAxisTitle, warn);
  if (s.valueAxisTitle !== undefined) setAxisTitle(chart, 'value', s.valueAxisTitle, warn);
}

/**
 * Rich text with one run, keeping the template's paragraph and run formatting (docs/powerpoint-rules.md
 * "Text bodies").
 */
export function richText(value: string, template?: XmlElement): XmlElement {
  const oldP = template ? childElements(template, 'a:p')[0] : undefined;
  const pPr = oldP && child(oldP, 'a:pPr');
  const rPr =
    oldP &&
    (childElements(oldP, 'a:r')
      .map((r) => child(r, 'a:rPr'))
      .find(Boolean) ??
      child(oldP, 'a:endParaRPr'));
  const runProps = rPr ? { ...cloneElement(rPr), name: 'a:rPr' } : element('a:rPr', { lang: 'en-US' });
  return element('c:rich', {}, [
    (template && child(template, 'a:bodyPr')) ?? element('a:bodyPr'),
    (template && child(template, 'a:lstStyle')) ?? element('a:lstStyle'),
    element('a:p', {}, [
      ...(pPr ? [pPr] : []),
      element('a:r', {}, [runProps, element('a:t', {}, [text(value)])]),
    ]),
  ]);
}

function titleElement(holder: XmlElement, order: readonly string[], value: string): void {
  const title = child(holder, 'c:title') ?? element('c:title', {}, [element('c:overlay', { val: '0' })]);
  const tx = child(title, 'c:tx');
  const rich = tx && child(tx, 'c:rich');
  insertInOrder(title, element('c:tx', {}, [richText(value, rich)]), TITLE_ORDER);
  insertInOrder(holder, title, order);
}

/** An empty title removes it, as PowerPoint does when the title is switched off. */
function setTitle(chart: XmlElement, value: string): void {
  const deleted = child(chart, 'c:autoTitleDeleted') ?? element('c:autoTitleDeleted');
  if (value === '') {
    const title = child(chart, 'c:title');
    if (title) removeNode(chart, title);
    deleted.attrs.val = '1';
  } else {
    titleElement(chart, CHART_ORDER, value);
    deleted.attrs.val = '0';
  }
  insertInOrder(chart, deleted, CHART_ORDER);
}

/** The font and size of all chart text: the chart's default, and every run and default that sets its own. */
function setChartFont(root: XmlElement, chart: XmlElement, s: ChartSettings): void {
  const props: RunProps = {};
  if (s.font !== undefined) props.font = s.font;
  if (s.fontSizePt !== undefined) props.size = s.fontSizePt * 100;
  applyRunProps(defaultRunProps(root, CHART_SPACE_ORDER), props, NO_LINKS);
  for (const name of ['a:defRPr', 'a:rPr', 'a:endParaRPr'])
    for (const el of descendants(chart, name)) applyRunProps(el, props, NO_LINKS);
}

const NO_LINKS = { addHyperlink: () => '' };

function applyLegend(chart: XmlElement, s: ChartSettings, warn: Warn): void {
  let legend = child(chart, 'c:legend');
  const hide = s.showLegend === false || s.legendPosition === 'none';
  if (hide) {
    if (legend) removeNode(chart, legend);
    if (s.showLegend === false && s.legendPosition !== undefined && s.legendPosition !== 'none')
      warn('chartLegendPosition was not applied: chartShowLegend is false');
    if (s.legendFontColor !== undefined || s.legendBold !== undefined)
      warn("the legend's font was not changed: the chart shows no legend");
    return;
  }
  if (!legend && s.showLegend === true) {
    legend = element('c:legend', {}, [
      element('c:legendPos', { val: 'r' }),
      element('c:overlay', { val: '0' }),
    ]);
    insertInOrder(chart, legend, CHART_ORDER);
  }
  const asked =
    s.legendPosition !== undefined || s.legendFontColor !== undefined || s.legendBold !== undefined;
  if (!legend) {
    if (asked)
      warn(
        'the chart draws no legend, so the legend settings were not applied (set chartShowLegend: true to add one)',
      );
    return;
  }
  if (s.legendPosition !== undefined) {
    insertInOrder(legend, element('c:legendPos', { val: s.legendPosition }), LEGEND_ORDER);
    // A manual layout pins the legend where it was; the new position must win.
    const layout = child(legend, 'c:layout');
    if (layout) layout.children = [];
  }
  const props: RunProps = {};
  if (s.legendFontColor !== undefined) props.color = s.legendFontColor;
  if (s.legendBold !== undefined) props.bold = s.legendBold;
  if (Object.keys(props).length > 0) applyRunProps(defaultRunProps(legend, LEGEND_ORDER), props, NO_LINKS);
}

function applyDataLabels(chart: XmlElement, s: ChartSettings, warn: Warn): void {
  const plotArea = child(chart, 'c:plotArea');
  if (!plotArea) return;
  const labelled =
    s.showValueLabels !== undefined ||
    s.dataLabelPosition !== undefined ||
    s.dataLabelFont !== undefined ||
    s.dataLabelFontSizePt !== undefined;
  if (!labelled) return;
  for (const group of plotGroups(plotArea)) {
    const info = plotGroupInfo(group.name);
    if (!info) continue;
    // CT_SurfaceSer has no c:dLbls: a surface chart draws no data labels at all.
    if (!info.seriesOrder.includes('c:dLbls')) {
      if (s.showValueLabels === true)
        warn(`${info.label} draws no data labels, so isChartLabelValueVisible was not applied`);
    }
    for (const series of info.seriesOrder.includes('c:dLbls') ? childElements(group, 'c:ser') : []) {
      let dLbls = child(series, 'c:dLbls');
      if (s.showValueLabels === true) {
        dLbls ??= newDataLabels(series, info.seriesOrder);
        setFlag(dLbls, 'c:showVal', true);
      } else if (s.showValueLabels === false && dLbls && !deleted(dLbls)) setFlag(dLbls, 'c:showVal', false);
      // Labels the template deleted (CT_DLbls is c:delete or the label settings, not both) stay as they are.
      if (!dLbls || deleted(dLbls)) continue;
      if (s.dataLabelPosition !== undefined) {
        const allowed = info.labelPositions(group);
        if (allowed.includes(s.dataLabelPosition))
          insertInOrder(dLbls, element('c:dLblPos', { val: s.dataLabelPosition }), DLBLS_ORDER);
      }
      const props: RunProps = {};
      if (s.dataLabelFont !== undefined) props.font = s.dataLabelFont;
      if (s.dataLabelFontSizePt !== undefined) props.size = s.dataLabelFontSizePt * 100;
      if (Object.keys(props).length > 0) applyRunProps(defaultRunProps(dLbls, DLBLS_ORDER), props, NO_LINKS);
    }
    if (s.dataLabelPosition !== undefined && !info.labelPositions(group).includes(s.dataLabelPosition))
      warn(
        `chartDataLabelPosition "${s.dataLabelPosition}" is not a position PowerPoint allows for ${info.label}${describeAllowed(info.labelPositions(group))}; not applied`,
      );
  }
  const shown = [...descendants(plotArea, 'c:dLbls')].some((dLbls) => !deleted(dLbls));
  if (!shown && s.showValueLabels === undefined)
    warn(
      'the chart shows no data labels, so the data label settings were not applied (set isChartLabelValueVisible: true)',
    );
}

function describeAllowed(allowed: readonly string[]): string {
  return allowed.length === 0 ? ' (it takes none)' : ` (it takes ${allowed.join(', ')})`;
}

/** A series' data labels showing nothing yet (every flag written, as PowerPoint does). */
function newDataLabels(series: XmlElement, order: readonly string[]): XmlElement {
  const dLbls = element(
    'c:dLbls',
    {},
    FLAGS.map((name) => element(name, { val: '0' })),
  );
  insertInOrder(series, dLbls, order);
  return dLbls;
}

/** Labels switched off as a whole (`<c:delete val="1"/>`, the first choice of CT_DLbls). */
function deleted(dLbls: XmlElement): boolean {
  const flag = child(dLbls, 'c:delete');
  return !!flag && flag.attrs.val !== '0' && flag.attrs.val !== 'false';
}

function setFlag(dLbls: XmlElement, name: string, on: boolean): void {
  const deletion = child(dLbls, 'c:delete');
  if (deletion && on) removeNode(dLbls, deletion);
  if (deletion && on)
    for (const flag of FLAGS)
      if (!child(dLbls, flag)) insertInOrder(dLbls, element(flag, { val: '0' }), DLBLS_ORDER);
  insertInOrder(dLbls, element(name, { val: on ? '1' : '0' }), DLBLS_ORDER);
}

/** The values' format: data labels and value axes show it (the caches carry it as formatCode). */
function setNumberFormat(chart: XmlElement, formatCode: string): void {
  const numFmt = (): XmlElement => element('c:numFmt', { formatCode, sourceLinked: '0' });
  for (const dLbls of descendants(chart, 'c:dLbls'))
    if (!deleted(dLbls)) insertInOrder(dLbls, numFmt(), DLBLS_ORDER);
  const plotArea = child(chart, 'c:plotArea');
  for (const axis of plotArea ? valueAxes(plotArea) : []) insertInOrder(axis, numFmt(), AXIS_ORDER);
}

/**
 * The primary category axis (`c:catAx`/`c:dateAx`, or a scatter chart's horizontal value axis) and the primary
 * value axis (the vertical `c:valAx`).
 */
function setAxisTitle(chart: XmlElement, which: 'category' | 'value', value: string, warn: Warn): void {
  const plotArea = child(chart, 'c:plotArea');
  const axes = plotArea
    ? childElements(plotArea).filter(
        (el) => el.name === 'c:catAx' || el.name === 'c:dateAx' || el.name === 'c:valAx',
      )
    : [];
  const horizontal = (ax: XmlElement): boolean => ['b', 't'].includes(child(ax, 'c:axPos')?.attrs.val ?? '');
  const bars = plotArea ? plotGroups(plotArea).some((g) => child(g, 'c:barDir')?.attrs.val === 'bar') : false;
  const categoryAxis = axes.find((ax) => ax.name !== 'c:valAx') ?? axes.find((ax) => horizontal(ax) !== bars);
  const valueAxis = axes.find((ax) => ax.name === 'c:valAx' && ax !== categoryAxis);
  const axis = which === 'category' ? categoryAxis : valueAxis;
  if (!axis) {
    warn(
      `${which === 'category' ? 'category_axis_title' : 'value_axis_title'} was not applied: the chart has no ${which} axis`,
    );
    return;
  }
  if (value === '') {
    const title = child(axis, 'c:title');
    if (title) removeNode(axis, title);
  } else titleElement(axis, AXIS_ORDER, value);
}

function valueAxes(plotArea: XmlElement): XmlElement[] {
  return childElements(plotArea, 'c:valAx');
}

/** `c:spPr` of `holder`, created in schema place when missing. */
function spPrOf(holder: XmlElement, order: readonly string[]): XmlElement {
  const existing = child(holder, 'c:spPr');
  if (existing) return existing;
  const spPr = element('c:spPr');
  insertInOrder(holder, spPr, order);
  return spPr;
}

/** The `a:defRPr` of the first paragraph of `holder`'s `c:txPr`, created when missing. */
function defaultRunProps(holder: XmlElement, order: readonly string[]): XmlElement {
  let txPr = child(holder, 'c:txPr');
  if (!txPr) {
    txPr = element('c:txPr', {}, [
      element('a:bodyPr'),
      element('a:lstStyle'),
      element('a:p', {}, [
        element('a:pPr', {}, [element('a:defRPr')]),
        element('a:endParaRPr', { lang: 'en-US' }),
      ]),
    ]);
    insertInOrder(holder, txPr, order);
  }
  let p = child(txPr, 'a:p');
  if (!p) {
    p = element('a:p');
    txPr.children.push(p);
  }
  let pPr = child(p, 'a:pPr');
  if (!pPr) {
    pPr = element('a:pPr');
    p.children.unshift(pPr);
  }
  let defRPr = child(pPr, 'a:defRPr');
  if (!defRPr) {
    defRPr = element('a:defRPr');
    insertInOrder(pPr, defRPr, PARAGRAPH_PROPERTIES_ORDER);
  }
  return defRPr;
}
