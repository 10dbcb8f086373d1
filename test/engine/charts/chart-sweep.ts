/**
 * The chart sweep shared by the corpus and the generated chart types: every chart of a deck filled twice
 * (one series and two categories more than the template, and fewer), one output deck validated once, caches and
 * workbook (ExcelJS) read back at the cells the formulas name. chartEx charts take the form their layout wants
 * (chart-ex-sweep.ts).
 */
import { expect } from 'vitest';
import { generate, inspect, type InspectedShape } from '../../../src/engine/index.js';
import {
  chartItemOf,
  packageFiles,
  readChartSeries,
  textOf,
  workbookItemOf,
  workbookReader,
} from '../../support/readers/chart-reading.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { chartExContent, chartExVariant, checkChartEx, type ExVariant } from './chart-ex-sweep.js';
import { slideParts } from '../../support/decks/deck.js';

type Chart = InspectedShape & { chart: NonNullable<InspectedShape['chart']> };

interface Variant {
  slide: number;
  chart: Chart;
  names: string[];
  categories: string[];
  values: (number | null)[][];
  scatter: boolean;
  bubble: boolean;
  /** A chartEx chart's variant (its template part's text decides the form). */
  ex: ExVariant | null;
}

function variant(slide: number, chart: Chart, more: boolean, templateXml: string): Variant {
  if (templateXml.includes('<cx:chartSpace')) {
    const ex = chartExVariant(templateXml, more);
    return { slide, chart, ...ex, scatter: false, bubble: false, ex };
  }
  const types = chart.chart.types.join(' ');
  const scatter = /^scatter/.test(types);
  const bubble = /^bubble/.test(types);
  const single = chart.chart.types.every((t) => /^(pie|pie3D|ofPie)/.test(t));
  // A stock chart takes exactly its series (high, low, close …); a pie one.
  const fixed = chart.chart.types.some((t) => /^stock/.test(t));
  const seriesCount = single
    ? 1
    : fixed
      ? chart.chart.series.length
      : Math.max(1, chart.chart.series.length + (more ? 1 : -1));
  const baseCategories = Math.max(chart.chart.categories, 2);
  const categoryCount = more ? baseCategories + 2 : Math.max(1, baseCategories - 1);
  const categories = Array.from({ length: categoryCount }, (_, i) => String(2001 + i));
  const names = Array.from({ length: seriesCount }, (_, k) => `S${k + 1} ${more ? 'more' : 'fewer'}`);
  const values = names.map((_, k) =>
    categories.map((_, i) => (more && k === 0 && i === 1 ? null : (k + 1) * 100 + i + 0.5)),
  );
  return { slide, chart, names, categories, values, scatter, bubble, ex: null };
}

function shapeEntry(v: Variant): Record<string, unknown> {
  if (v.ex) return { shapeId: v.chart.id, content: chartExContent(v.ex) };
  if (v.scatter || v.bubble) {
    const x = v.categories.map((_, i) => i + 1);
    return {
      shapeId: v.chart.id,
      content: {
        categories: v.categories,
        series: v.names.map((name, k) => ({
          name,
          x,
          y: v.values[k],
          ...(v.bubble ? { size: v.categories.map((_, i) => i + 2) } : {}),
        })),
      },
    };
  }
  return {
    shapeId: v.chart.id,
    content: { categories: v.categories, series: v.names.map((name, k) => ({ name, values: v.values[k] })) },
  };
}

/** Fills every chart of `template` (more and fewer), validates the deck, reads caches and workbooks back. */
export async function sweepCharts(template: Uint8Array, label: string): Promise<void> {
  const charted = inspect(template).slides.flatMap((s) => {
    const charts = s.shapes.filter((sh): sh is Chart => sh.kind === 'chart' && sh.chart !== undefined);
    return charts.length > 0 ? [{ index: s.index, charts }] : [];
  });
  expect(charted.length).toBeGreaterThan(0);
  const templateFiles = packageFiles(template);
  const templateSlides = slideParts(template);
  const templateXml = (slide: number, chart: Chart): string =>
    textOf(templateFiles, chartItemOf(templateFiles, templateSlides[slide] as string, chart.id));
  const slides: Variant[][] = charted.flatMap((s) =>
    [true, false].map((more) => s.charts.map((c) => variant(s.index, c, more, templateXml(s.index, c)))),
  );
  const result = generate({
    files: new Map([['t.pptx', template]]),
    payload: {
      presentation: {
        template: 't.pptx',
        slides: slides.map((vs) => ({ slide_index: vs[0]!.slide, shapes: vs.map(shapeEntry) })),
      },
    },
  });
  await expectValidPptx(result.bytes, template);

  const files = packageFiles(result.bytes);
  const order = slideParts(result.bytes);
  for (const [position, variants] of slides.entries()) {
    for (const v of variants) {
      const where = `${label} output slide ${position} "${v.chart.name}"`;
      const chartItem = chartItemOf(files, order[position] as string, v.chart.id);
      if (v.ex) {
        await checkChartExOutput(
          files,
          chartItem,
          v.ex,
          where,
          templateFiles,
          templateSlides[v.slide]!,
          v.chart,
        );
        continue;
      }
      const cached = readChartSeries(textOf(files, chartItem));
      expect(
        cached.map((s) => s.name),
        where,
      ).toEqual(v.names);
      cached.forEach((s, k) => {
        expect(s.values, `${where} series ${k}`).toEqual(v.values[k]);
        if (!v.scatter && !v.bubble)
          expect(s.categories, `${where} series ${k} categories`).toEqual(v.categories);
      });
      if (v.chart.chart.workbook !== 'embedded') {
        if (v.chart.chart.workbook === 'linked')
          expect(
            result.warnings.some((w) => w.message.includes('linked workbook')),
            where,
          ).toBe(true);
        continue;
      }
      // A chart whose template embeds its workbook must keep one: a lost workbook is a bug, not a skip.
      const workbookItem = workbookItemOf(files, chartItem);
      expect(workbookItem, `${where} workbook`).not.toBeNull();
      const book = await workbookReader(files[workbookItem!] as Uint8Array);
      for (const [k, s] of cached.entries()) {
        expect(s.valueFormula, `${where} series ${k} has a formula`).not.toBeNull();
        expect(book.cells(s.valueFormula as string), `${where} series ${k} values in the workbook`).toEqual(
          v.values[k],
        );
        if (s.nameFormula)
          expect(book.cells(s.nameFormula), `${where} series ${k} name`).toEqual([v.names[k]]);
        if (s.categoryFormula)
          expect(book.cells(s.categoryFormula).map(String), `${where} series ${k} categories`).toEqual(
            v.categories,
          );
      }
    }
  }
}

async function checkChartExOutput(
  files: Record<string, Uint8Array>,
  chartItem: string,
  v: ExVariant,
  where: string,
  templateFiles: Record<string, Uint8Array>,
  templateSlide: string,
  chart: Chart,
): Promise<void> {
  const workbookItem = workbookItemOf(files, chartItem);
  const book = workbookItem ? await workbookReader(files[workbookItem] as Uint8Array) : null;
  const templateItem = workbookItemOf(templateFiles, chartItemOf(templateFiles, templateSlide, chart.id));
  const templateBook = templateItem ? await workbookReader(templateFiles[templateItem] as Uint8Array) : null;
  if (chart.chart.workbook === 'embedded') expect(book, `${where} workbook`).not.toBeNull();
  checkChartEx(
    textOf(files, chartItem),
    v,
    where,
    book && ((f) => book.cells(f)),
    templateBook && ((f) => templateBook.cells(f)),
  );
}
