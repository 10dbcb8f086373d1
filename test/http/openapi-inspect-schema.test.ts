/**
 * The OpenAPI document's InspectResult says what `POST /v1.0/template/inspect` answers: the engine's inspection
 * of the project's layouts template, of a template with charts and a table, and of every corpus deck (when the
 * corpus is there) validates against it, so the schema and the client types generated from it cannot drift from
 * the engine. Ajv comes with Fastify, as in the payload schema's test.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { inspect } from '../../src/engine/index.js';
import { OPENAPI_SCHEMAS } from '../../src/http/openapi/openapi-schemas.js';
import { chartDeck, generatedChartsDeck } from '../support/decks/chart-templates.js';
import { corpusFiles, itCorpus, readCorpus } from '../support/corpus/corpus.js';
import { layoutsTemplate, tableTemplate } from '../support/decks/layouts-template.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validate = ajv.compile({
  $ref: '#/components/schemas/InspectResult',
  components: { schemas: OPENAPI_SCHEMAS },
});

function problems(result: unknown): string[] {
  return validate(result) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

describe('OpenAPI InspectResult', () => {
  it('describes the inspection of the layouts template and of a table template', () => {
    expect(problems(inspect(layoutsTemplate()))).toEqual([]);
    expect(problems(inspect(tableTemplate()))).toEqual([]);
  });

  it('describes the content of text shapes, tables and charts (categories, scatter and bubble alike)', () => {
    for (const deck of [tableTemplate(), chartDeck(), generatedChartsDeck().bytes]) {
      const result = inspect(deck);
      const shapes = result.slides.flatMap((s) => s.shapes);
      expect(shapes.some((s) => s.paragraphs && s.paragraphs.length > 0)).toBe(true);
      expect(problems(result)).toEqual([]);
    }
    const charts = inspect(generatedChartsDeck().bytes)
      .slides.flatMap((s) => s.shapes)
      .flatMap((s) => (s.chart?.data ? [s.chart.data] : []));
    expect(charts.some((d) => 'categories' in d)).toBe(true);
    expect(charts.some((d) => !('categories' in d) && d.series.some((s) => s.size))).toBe(true);
    const tables = inspect(tableTemplate()).slides.flatMap((s) => s.shapes.filter((sh) => sh.table));
    expect(tables.length).toBeGreaterThan(0);
  });

  it('refuses a table without its cells and a run property no payload has', () => {
    const tables = inspect(tableTemplate());
    const table = tables.slides.flatMap((s) => s.shapes).find((s) => s.table)!.table as unknown as Record<
      string,
      unknown
    >;
    delete table.cells;
    expect(problems(tables).join('\n')).toMatch(/cells/);
    const result = inspect(layoutsTemplate());
    const text = result.slides.flatMap((s) => s.shapes).find((s) => s.paragraphs?.[0]?.runs[0])!;
    (text.paragraphs![0]!.runs[0]!.text_properties as Record<string, unknown>).kerning = 1200;
    expect(problems(result).join('\n')).toMatch(/additional/);
  });

  it('refuses a result whose shape lacks its box or has a box without a size', () => {
    const result = inspect(layoutsTemplate());
    const shape = result.slides[0]?.shapes[0] as unknown as Record<string, unknown>;
    delete shape.box;
    expect(problems(result).join('\n')).toMatch(/box/);
    shape.box = { x: 1, y: 2 };
    expect(problems(result).join('\n')).toMatch(/cx/);
  });

  itCorpus('describes the inspection of every corpus deck the engine opens', () => {
    const failures: string[] = [];
    let inspected = 0;
    for (const file of corpusFiles()) {
      let result: unknown;
      try {
        result = inspect(readCorpus(file));
      } catch {
        continue; // decks the engine refuses are corpus.test.ts's business
      }
      inspected += 1;
      for (const problem of problems(result).slice(0, 3)) failures.push(`${file.file}: ${problem}`);
    }
    expect(inspected).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  });
});
