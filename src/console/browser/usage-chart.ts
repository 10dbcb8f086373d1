/**
 * The per-day chart of the usage page, drawn as an SVG by our own code: one bar per day of the current period,
 * scaled to the busiest day. The geometry is a pure function (tested without a browser); `drawUsageChart` turns it
 * into elements.
 */
import { svg } from './dom-builder.js';
import { CHART, chartBars, type DaySlides } from './usage-bars.js';

export type { DaySlides };

/** Narrowest drawing: below it the chart scales down (a phone held upright is wider than this). */
const MIN_WIDTH = 280;
/** Room a date label needs, in chart units (CSS pixels at the width the page draws it). */
const DATE_LABEL_WIDTH = 48;

/**
 * `availableWidth`: the CSS pixels the chart has (the page's width less its margins): the drawing is made that
 * wide, up to CHART.width, so that its 11 px labels stay 11 px on a phone rather than scaled to half that.
 */
export function drawUsageChart(days: DaySlides[], availableWidth: number = CHART.width): SVGSVGElement {
  const width = Math.round(Math.min(CHART.width, Math.max(MIN_WIDTH, availableWidth)));
  const { bars, max } = chartBars(days, width);
  const base = CHART.height - CHART.bottom;
  const chart = svg('svg', {
    class: 'usage-chart',
    viewBox: `0 0 ${width} ${CHART.height}`,
    role: 'img',
    'aria-label': `Slides generated per day; the busiest day has ${max}`,
  });
  chart.append(
    svg('line', { class: 'axis', x1: CHART.left, y1: base, x2: width, y2: base }),
    svg('text', { class: 'axis-label', x: CHART.left - 6, y: 14, 'text-anchor': 'end' }, String(max)),
    svg('text', { class: 'axis-label', x: CHART.left - 6, y: base, 'text-anchor': 'end' }, '0'),
  );
  const labels = Math.max(2, Math.min(8, Math.floor((width - CHART.left) / DATE_LABEL_WIDTH)));
  const every = Math.max(1, Math.ceil(bars.length / labels));
  bars.forEach((bar, i) => {
    chart.appendChild(
      svg(
        'rect',
        { class: 'bar', x: bar.x, y: bar.y, width: bar.width, height: bar.height, 'data-date': bar.date },
        svg('title', {}, `${bar.date}: ${bar.slides} slides`),
      ),
    );
    if (i % every === 0)
      chart.appendChild(
        svg(
          'text',
          { class: 'axis-label', x: bar.x + bar.width / 2, y: CHART.height - 6, 'text-anchor': 'middle' },
          bar.date.slice(5),
        ),
      );
  });
  return chart;
}
