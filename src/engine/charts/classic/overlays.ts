/**
 * `overlays` (docs/payload-charts.md): one array per series, one string per point, appended to that point's
 * data label. The point gets its own `c:dLbl` whose rich text is the label PowerPoint would show (fields for the
 * value, category or series name the series' labels show; the value when they show nothing) followed by the
 * text. Field labels are Office 2013 markup: the `c15` extension marks the text as a field table.
 */
import { randomUUID } from 'node:crypto';
import { child, childElements, element, text, type XmlElement } from '../../xml/index.js';
import { plotGroupInfo } from './plot-groups.js';
import { chartSeries } from './series-resize.js';

const FIELD_EXT = '{CE6537A1-D6FC-4f65-9D91-7224C49458BB}';
const C15 = 'http://schemas.microsoft.com/office/drawing/2012/chart';
const FLAGS = [
  'c:showLegendKey',
  'c:showVal',
  'c:showCatName',
  'c:showSerName',
  'c:showPercent',
  'c:showBubbleSize',
];
/** Which field each shown flag contributes, in PowerPoint's label order. */
const FIELDS: [string, string, string][] = [
  ['c:showSerName', 'SERIESNAME', '[SERIES NAME]'],
  ['c:showCatName', 'CATEGORYNAME', '[CATEGORY NAME]'],
  ['c:showVal', 'VALUE', '[VALUE]'],
  ['c:showPercent', 'PERCENTAGE', '[PERCENTAGE]'],
];

export function applyOverlays(
  root: XmlElement,
  overlays: readonly (readonly string[])[],
  warn: (message: string) => void,
): void {
  const chart = child(root, 'c:chart');
  const plotArea = chart && child(chart, 'c:plotArea');
  if (!plotArea) return;
  const series = chartSeries(plotArea);
  overlays.forEach((labels, k) => {
    const entry = series[k];
    if (!entry) {
      warn(`overlays[${k}] names a series the chart does not have; ignored`);
      return;
    }
    labels.forEach((label, i) => {
      if (label !== '') setPointLabel(entry.el, plotGroupInfo(entry.group.name)?.seriesOrder ?? [], i, label);
    });
  });
}

function setPointLabel(series: XmlElement, order: readonly string[], index: number, overlay: string): void {
  let dLbls = child(series, 'c:dLbls');
  if (!dLbls) {
    dLbls = element(
      'c:dLbls',
      {},
      FLAGS.map((name) => element(name, { val: '0' })),
    );
    const at = order.indexOf('c:dLbls');
    const after = series.children.findIndex((n) => n.kind === 'element' && order.indexOf(n.name) > at);
    series.children.splice(after < 0 ? series.children.length : after, 0, dLbls);
  }
  const shown = FIELDS.filter(([flag]) => child(dLbls, flag)?.attrs.val === '1');
  const fields = shown.length > 0 ? shown : FIELDS.filter(([flag]) => flag === 'c:showVal');
  const separator =
    child(dLbls, 'c:separator')
      ?.children.map((n) => (n.kind === 'text' ? n.text : ''))
      .join('') || ', ';
  const runs: XmlElement[] = [];
  fields.forEach(([, type, placeholder], i) => {
    if (i > 0) runs.push(run(separator));
    runs.push(
      element('a:fld', { id: `{${randomUUID().toUpperCase()}}`, type }, [
        element('a:rPr', { lang: 'en-US' }),
        element('a:pPr'),
        element('a:t', {}, [text(placeholder)]),
      ]),
    );
  });
  runs.push(run(` ${overlay}`));
  const label = element('c:dLbl', {}, [
    element('c:idx', { val: String(index) }),
    element('c:tx', {}, [
      element('c:rich', {}, [element('a:bodyPr'), element('a:lstStyle'), element('a:p', {}, runs)]),
    ]),
    ...FLAGS.map((flag) => element(flag, { val: fields.some(([f]) => f === flag) ? '1' : '0' })),
    element('c:extLst', {}, [
      element('c:ext', { uri: FIELD_EXT, 'xmlns:c15': C15 }, [element('c15:dlblFieldTable')]),
    ]),
  ]);
  const existing = childElements(dLbls, 'c:dLbl');
  const same = existing.find((l) => child(l, 'c:idx')?.attrs.val === String(index));
  if (same) {
    dLbls.children[dLbls.children.indexOf(same)] = label;
    return;
  }
  const later = existing.find((l) => Number(child(l, 'c:idx')?.attrs.val) > index);
  const firstOther = dLbls.children.findIndex((n) => n.kind === 'element' && n.name !== 'c:dLbl');
  const at = later ? dLbls.children.indexOf(later) : firstOther < 0 ? dLbls.children.length : firstOther;
  dLbls.children.splice(at, 0, label);
}

function run(value: string): XmlElement {
  return element('a:r', {}, [element('a:rPr', { lang: 'en-US' }), element('a:t', {}, [text(value)])]);
}
