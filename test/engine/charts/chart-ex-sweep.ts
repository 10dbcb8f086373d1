/**
 * The chartEx half of the chart sweep (chart-sweep.ts): what to send a chartEx chart (waterfall, funnel,
 * treemap, sunburst, histogram, pareto, box & whisker, region map) to have one series and two points more than
 * its template, or fewer, in the form its layout takes (docs/payload-charts.md); and the checks of the output:
 * `cx:data` caches and series names read back, the workbook read back at the cells the `cx:f` formulas name,
 * and the series structure kept sound (data ids, pareto lines and their owners, point indices).
 */
import { expect } from 'vitest';
import {
  chartExDataIds,
  readChartExSeries,
  type CachedExSeries,
  type CellValue,
} from '../../support/readers/chart-reading.js';

const SINGLE = ['waterfall', 'funnel', 'treemap', 'sunburst', 'regionMap'];

export interface ExVariant {
  names: string[];
  /** The categories sent (none for a chart whose template has no category dimension). */
  categories: string[];
  values: (number | null)[][];
  /** The template's series (lines included), to compare structure with. */
  template: CachedExSeries[];
  regionMap: boolean;
}

function owners(series: readonly CachedExSeries[]): CachedExSeries[] {
  return series.filter((s) => s.layout !== 'paretoLine');
}

/** One series and two points more than the template (`more`), or one of each fewer. */
export function chartExVariant(templateXml: string, more: boolean): ExVariant {
  const template = readChartExSeries(templateXml);
  const first = owners(template)[0]!;
  const regionMap = first.layout === 'regionMap';
  const points = first.values.length;
  const count = regionMap ? points : more ? points + 2 : Math.max(1, points - 1);
  const seriesCount = SINGLE.includes(first.layout)
    ? 1
    : Math.max(1, owners(template).length + (more ? 1 : -1));
  const tag = more ? 'more' : 'fewer';
  const categories = regionMap
    ? first.categoryLevels![0]!
    : first.categoryLevels === null
      ? []
      : Array.from({ length: count }, (_, i) =>
          first.layout === 'boxWhisker' ? `Group ${Math.floor(i / 2) + 1}` : `${tag} ${2001 + i}`,
        );
  const names = Array.from({ length: seriesCount }, (_, k) => `S${k + 1} ${tag}`);
  const values = names.map((_, k) =>
    Array.from({ length: count }, (_, i) => (more && k === 0 && i === 1 ? null : (k + 1) * 10 + i + 0.5)),
  );
  return { names, categories, values, template, regionMap };
}

export function chartExContent(v: ExVariant): Record<string, unknown> {
  return {
    ...(v.categories.length > 0 ? { categories: v.categories } : {}),
    series: v.names.map((name, k) => ({ name, values: v.values[k] })),
  };
}

type Cells = (formula: string) => CellValue[];

/** The output chart holds the variant: caches, structure, and (with `book`/`templateBook`) the workbook. */
export function checkChartEx(
  xml: string,
  v: ExVariant,
  where: string,
  book: Cells | null,
  templateBook: Cells | null,
): void {
  const all = readChartExSeries(xml);
  const series = owners(all);
  expect(
    series.map((s) => s.name),
    `${where} names`,
  ).toEqual(v.names);
  const points = v.values[0]!.length;
  const templateFirst = owners(v.template)[0]!;
  series.forEach((s, k) => {
    const at = `${where} series ${k}`;
    expect(s.layout, `${at} layout`).toBe(templateFirst.layout);
    expect(s.values, `${at} values`).toEqual(v.values[k]);
    if (v.regionMap) expect(s.categoryLevels, `${at} regions`).toEqual(templateFirst.categoryLevels);
    else if (templateFirst.categoryLevels === null) expect(s.categoryLevels, `${at} categories`).toBeNull();
    else expect(s.categoryLevels, `${at} categories`).toEqual([v.categories]);
    for (const i of [...s.pointIndices, ...s.subtotals]) expect(i, `${at} point index`).toBeLessThan(points);
    if (!book) return;
    expect(s.valueFormula, `${at} has a value formula`).not.toBeNull();
    expect(book(s.valueFormula!), `${at} values in the workbook`).toEqual(v.values[k]);
    if (s.nameFormula) expect(book(s.nameFormula), `${at} name in the workbook`).toEqual([v.names[k]]);
    if (s.categoryFormula && v.regionMap && templateBook)
      expect(book(s.categoryFormula), `${at} regions in the workbook`).toEqual(
        templateBook(templateFirst.categoryFormula!),
      );
    else if (s.categoryFormula)
      expect(book(s.categoryFormula).map(String), `${at} categories in the workbook`).toEqual(v.categories);
  });
  // Every series names a data block of its own; a pareto line follows a series that is not a line, and each
  // series that had a line in the template (or was cloned from one that had) still has exactly one.
  const ids = chartExDataIds(xml);
  expect(new Set(ids).size, `${where} data ids unique`).toBe(ids.length);
  expect(
    series.map((s) => ids.includes(s.dataId ?? -1)),
    `${where} data blocks`,
  ).toEqual(series.map(() => true));
  expect(new Set(series.map((s) => s.dataId)).size, `${where} one data block per series`).toBe(series.length);
  const lines = all.filter((s) => s.layout === 'paretoLine');
  for (const line of lines) {
    const owner = all[line.ownerIdx ?? -1];
    expect(owner && owner.layout !== 'paretoLine', `${where} a pareto line follows a series`).toBe(true);
  }
  if (v.template.some((s) => s.layout === 'paretoLine'))
    expect(lines.map((l) => l.ownerIdx).sort(), `${where} one line per series`).toEqual(
      series.map((s) => all.indexOf(s)).sort(),
    );
}
