/**
 * Chart settings on a chartEx part (`cx:chartSpace`, docs/powerpoint-rules.md "chartEx charts"): its title
 * (`cx:title/cx:tx/cx:txData`), legend (`cx:legend/@pos`), chart area fill and value labels
 * (`cx:dataLabels/cx:visibility/@value`). The other settings have no counterpart PowerPoint honours there and are
 * skipped with a warning.
 */
import type { ShapeSettings } from '../../payload/model.js';
import {
  child,
  childElements,
  element,
  insertInOrder,
  removeNode,
  text,
  type XmlElement,
} from '../../xml/index.js';
import { seriesRegion } from './chart-ex.js';

/** CT_Chart (chartex): title, plotArea, legend, extLst; CT_ChartSpace: chartData, chart, spPr, txPr, clrMapOvr, fmtOvrs, printSettings, extLst. */
const CHART_ORDER = ['cx:title', 'cx:plotArea', 'cx:legend', 'cx:extLst'];
const SPACE_ORDER = [
  'cx:chartData',
  'cx:chart',
  'cx:spPr',
  'cx:txPr',
  'cx:clrMapOvr',
  'cx:fmtOvrs',
  'cx:printSettings',
  'cx:extLst',
];
/** CT_Series (chartex) up to its data labels. */
const SERIES_ORDER = [
  'cx:tx',
  'cx:spPr',
  'cx:valueColors',
  'cx:valueColorPositions',
  'cx:dataPt',
  'cx:dataLabels',
  'cx:dataId',
  'cx:layoutPr',
  'cx:axisId',
  'cx:extLst',
];
const LEGEND_POS: Record<string, string> = { l: 'l', r: 'r', b: 'b', t: 't', tr: 'r' };
/** The settings this part has no place for, by their payload names. */
const UNSUPPORTED: Record<string, string> = {
  font: 'chartFont',
  fontSizePt: 'chartFontSize',
  legendFontColor: 'chartLegendFontColor',
  legendBold: 'isChartLegendBold',
  dataLabelPosition: 'chartDataLabelPosition',
  dataLabelFontSizePt: 'chartDataLabelFontSize',
  dataLabelFont: 'chartDataLabelFont',
  numberFormat: 'number_format',
  categoryAxisTitle: 'category_axis_title',
  valueAxisTitle: 'value_axis_title',
};

export function applyChartExSettings(
  root: XmlElement,
  settings: ShapeSettings,
  warn: (message: string) => void,
): void {
  const chart = child(root, 'cx:chart');
  if (!chart) return;
  const s = settings.chart ?? {};
  if (settings.fillColor !== undefined) {
    const fill = element('a:solidFill', {}, [element('a:srgbClr', { val: settings.fillColor })]);
    insertInOrder(root, element('cx:spPr', {}, [fill]), SPACE_ORDER);
  }
  if (s.title !== undefined) {
    const old = child(chart, 'cx:title');
    if (s.title === '') {
      if (old) removeNode(chart, old);
    } else {
      const title = old ?? element('cx:title', { pos: 't', align: 'ctr', overlay: '0' });
      insertInOrder(
        title,
        element('cx:tx', {}, [element('cx:txData', {}, [element('cx:v', {}, [text(s.title)])])]),
        ['cx:tx', 'cx:spPr', 'cx:txPr', 'cx:extLst'],
      );
      insertInOrder(chart, title, CHART_ORDER);
    }
  }
  const legend = child(chart, 'cx:legend');
  if (s.showLegend === false || s.legendPosition === 'none') {
    if (legend) removeNode(chart, legend);
  } else if (s.showLegend === true || s.legendPosition !== undefined) {
    if (!legend && s.showLegend !== true)
      warn(
        'the chart draws no legend, so chartLegendPosition was not applied (set chartShowLegend: true to add one)',
      );
    else {
      const pos = LEGEND_POS[s.legendPosition ?? 'r'] ?? 'r';
      const target = legend ?? element('cx:legend', { pos, align: 'ctr', overlay: '0' });
      target.attrs.pos = pos;
      insertInOrder(chart, target, CHART_ORDER);
    }
  }
  if (s.showValueLabels !== undefined) {
    const region = seriesRegion(root);
    for (const series of region ? childElements(region, 'cx:series') : []) {
      const labels = child(series, 'cx:dataLabels') ?? element('cx:dataLabels', { pos: 'ctr' });
      const visibility =
        child(labels, 'cx:visibility') ??
        element('cx:visibility', { seriesName: '0', categoryName: '0', value: '0' });
      visibility.attrs.value = s.showValueLabels ? '1' : '0';
      insertInOrder(labels, visibility, [
        'cx:numFmt',
        'cx:spPr',
        'cx:txPr',
        'cx:visibility',
        'cx:separator',
        'cx:dataLabel',
        'cx:dataLabelHidden',
        'cx:extLst',
      ]);
      insertInOrder(series, labels, SERIES_ORDER);
    }
  }
  const skipped = Object.keys(s).flatMap((key) => (UNSUPPORTED[key] ? [UNSUPPORTED[key]] : []));
  if (skipped.length > 0)
    warn(
      `${skipped.join(', ')} cannot be applied to this kind of chart (waterfall, treemap, sunburst …); skipped`,
    );
}
