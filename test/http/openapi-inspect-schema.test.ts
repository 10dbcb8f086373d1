/**
 * The OpenAPI document's InspectResult says what `POST /v1.0/template/inspect` answers: the engine's inspection
 * of the project's layouts template, of a template with charts and a table, and of every corpus deck (when the
 * corpus is there) validates against it, so the schema and the client types generated from it cannot drift from
 * the engine. Ajv comes with Fastify, as in the payload schema's test.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { inspect } from '../../src/engine/index.js';
import { OPENAPI_SCHEMAS } from '../../src/http/openapi-schemas.js';
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
