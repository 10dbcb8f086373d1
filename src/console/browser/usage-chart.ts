/**
 * The per-day chart of the usage page, drawn as an SVG by our own code: one bar per day of the current period,
 * scaled to the busiest day. The geometry is a pure function (tested without a browser); `drawUsageChart` turns it
 * into elements.
 */
import { svg } from './dom-builder.js';
import { CHART, chartBars, type DaySlides } from './usage-bars.js';

export type { DaySlides };

export function drawUsageChart(days: DaySlides[]): SVGSVGElement {
  const { bars, max } = chartBars(days);
  const base = CHART.height - CHART.bottom;
  const chart = svg('svg', {
    class: 'usage-chart',
    viewBox: `0 0 ${CHART.width} ${CHART.height}`,
    role: 'img',
    'aria-label': `Slides generated per day; the busiest day has ${max}`,
  });
  chart.append(
    svg('line', { class: 'axis', x1: CHART.left, y1: base, x2: CHART.width, y2: base }),
    svg('text', { class: 'axis-label', x: CHART.left - 6, y: 14, 'text-anchor': 'end' }, String(max)),
    svg('text', { class: 'axis-label', x: CHART.left - 6, y: base, 'text-anchor': 'end' }, '0'),
  );
  const every = Math.max(1, Math.ceil(bars.length / 8));
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
