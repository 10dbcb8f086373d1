/**
 * The classic chart types the corpus lacks (3-D forms, stock, surface, pie-of-pie, radar filled, bubble 3-D,
 * combinations on a secondary axis …), from test templates written from the schema (test/support/decks/chart-templates.ts),
 * through the same sweep as the corpus charts.
 */
import { describe, expect, it } from 'vitest';
import { inspect } from '../../../src/engine/index.js';
import { chartDeck, generatedChartsDeck } from '../../support/decks/chart-templates.js';
import { newValidatorErrors } from '../../support/checks/validator.js';
import { sweepCharts } from './chart-sweep.js';

describe('generated chart types', () => {
  const deck = generatedChartsDeck();

  it('the generated templates are sound and inspect reports their types', async () => {
    expect(await newValidatorErrors(deck.bytes, chartDeck())).toEqual([]);
    const charts = inspect(deck.bytes)
      .slides.slice(1)
      .map((s) => s.shapes.find((sh) => sh.kind === 'chart')?.chart?.types);
    expect(charts).toHaveLength(deck.types.length);
    expect(charts.flat()).toEqual(
      expect.arrayContaining(['bar3D (column, clustered)', 'stock', 'surface3D', 'ofPie (bar)']),
    );
  }, 120_000);

  it('every type filled with more and fewer series and categories', async () => {
    await sweepCharts(deck.bytes, 'generated');
  }, 180_000);
});
