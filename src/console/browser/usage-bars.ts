/**
 * The geometry of the usage page's per-day chart: one bar per day of the current period, scaled to the busiest
 * day, in the chart's own coordinates. Pure, so it is tested without a browser; usage-chart.ts draws it.
 */

export interface DaySlides {
  date: string;
  slides: number;
}

export interface ChartBar {
  date: string;
  slides: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export const CHART = { width: 600, height: 180, bottom: 24, left: 36 } as const;

const MIN_SLOTS = 10;

/**
 * `width`: the chart's width in its own units, which the page makes the CSS pixels it has (usage-chart.ts), so
 * that its labels keep their size on a phone instead of shrinking with a 600-unit drawing.
 */
export function chartBars(days: DaySlides[], width: number = CHART.width): { bars: ChartBar[]; max: number } {
  const max = Math.max(1, ...days.map((d) => d.slides));
  const plotWidth = width - CHART.left;
  const plotHeight = CHART.height - CHART.bottom - 8;
  // At least MIN_SLOTS slots: a period of one or two days gets bars of a normal width, not one wall of colour.
  const step = plotWidth / Math.max(MIN_SLOTS, days.length);
  const bars = days.map((day, i) => {
    const height = (Math.max(0, day.slides) / max) * plotHeight;
    return {
      date: day.date,
      slides: day.slides,
      x: CHART.left + i * step + step * 0.15,
      y: CHART.height - CHART.bottom - height,
      width: step * 0.7,
      height,
    };
  });
  return { bars, max };
}
