/**
 * GenerationPool contract: runs the real engine off the caller's event loop, reports template and payload
 * problems as EngineError (code and path intact), and keeps serving after a task fails.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../../src/engine/index.js';
import type { GenerationPool } from '../../../src/service/ports/index.js';
import { CORPUS_DIR } from '../../support/corpus.js';

const template = () => new Uint8Array(readFileSync(join(CORPUS_DIR, 'poi', 'layouts.pptx')));

export function titleDeck(slides: number, extra: Record<string, unknown> = {}): unknown {
  return {
    presentation: {
      template: 'layouts.pptx',
      slides: Array.from({ length: slides }, (_, i) => ({
        type: 'slide',
        slide_index: 0,
        shapes: [{ name: 'Title 1', content: `Slide ${i + 1}` }],
      })),
      ...extra,
    },
  };
}

export function describeGenerationPoolContract(name: string, make: () => Promise<GenerationPool>): void {
  describe(`GenerationPool contract: ${name}`, () => {
    let pool: GenerationPool;
    beforeAll(async () => {
      pool = await make();
    });
    afterAll(async () => {
      await pool.close();
    });

    it('generates a deck with the engine', async () => {
      const result = await pool.generate({
        payload: titleDeck(3, { resultFileName: 'Pool' }),
        files: new Map([['layouts.pptx', template()]]),
      });
      expect(result.slideCount).toBe(3);
      expect(result.fileName).toBe('Pool.pptx');
      expect([result.bytes[0], result.bytes[1]]).toEqual([0x50, 0x4b]);
    });

    it('reports engine errors as EngineError with code and path, then keeps working', async () => {
      const bad = titleDeck(1, { shape_validation_mode: 'strict' }) as {
        presentation: { slides: { shapes: { name: string }[] }[] };
      };
      bad.presentation.slides[0]!.shapes[0]!.name = 'Nope';
      const error = await pool
        .generate({ payload: bad, files: new Map([['layouts.pptx', template()]]) })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).code).toBe('SHAPE_NOT_FOUND');
      expect((error as EngineError).message).toMatch(/Nope/);
      const missing = await pool
        .generate({ payload: titleDeck(1), files: new Map() })
        .catch((e: unknown) => e);
      expect((missing as EngineError).code).toBe('MISSING_FILE');
      const ok = await pool.generate({
        payload: titleDeck(1),
        files: new Map([['layouts.pptx', template()]]),
      });
      expect(ok.slideCount).toBe(1);
    });

    it('inspects a template', async () => {
      const result = (await pool.inspect(template())) as unknown as { slides: unknown[] };
      expect(result.slides).toHaveLength(10);
    });

    it('runs several tasks at once and answers each with its own result', async () => {
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map((n) =>
          pool.generate({ payload: titleDeck(n), files: new Map([['layouts.pptx', template()]]) }),
        ),
      );
      expect(results.map((r) => r.slideCount)).toEqual([1, 2, 3, 4, 5]);
    });
  });
}
