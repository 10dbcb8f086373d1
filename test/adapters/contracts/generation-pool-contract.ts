/**
 * GenerationPool contract: runs the real engine off the caller's event loop, reports template and payload
 * problems as the EngineError the engine itself throws (code, path and message intact), and keeps serving after
 * a task fails; makes render-safe copies. Every deck it returns goes through the package and validator checks.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkJsonLimits,
  EngineError,
  generate,
  inspect,
  parseJsonText,
  parsePayload,
  payloadFacts,
  renderSafeCopy,
} from '../../../src/engine/index.js';
import type { GenerationPool } from '../../../src/service/ports/index.js';
import { engineErrorOf } from '../../support/checks/engine-error.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../../support/decks/layouts-template.js';
import { twoEndRecords } from '../../support/decks/zip-polyglots.js';

const template = layoutsTemplate;

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

/** The text of each output slide's "Title 1" (read with the engine's inspector, in slide order). */
function slideTitles(bytes: Uint8Array): (string | undefined)[] {
  return inspect(bytes).slides.map((s) => s.shapes.find((shape) => shape.name === 'Title 1')?.text);
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
      expect(slideTitles(result.bytes)).toEqual(['Slide 1', 'Slide 2', 'Slide 3']);
      await expectValidPptx(result.bytes, template());
    });

    it('reports engine errors as EngineError with code and path, then keeps working', async () => {
      const bad = titleDeck(1, { shape_validation_mode: 'strict' }) as {
        presentation: { slides: { shapes: { name: string }[] }[] };
      };
      bad.presentation.slides[0]!.shapes[0]!.name = 'Nope';
      // Fresh tasks each time: the pool may move the uploaded bytes to its thread.
      const cases = () => [
        { payload: bad, files: new Map([['layouts.pptx', template()]]) },
        { payload: titleDeck(1), files: new Map<string, Uint8Array>() },
      ];
      const errors = [];
      for (const task of cases()) errors.push(await pool.generate(task).catch((e: unknown) => e));
      // Exactly what the engine itself throws for the same input: code, path and message.
      const seen = errors.map((e) => {
        expect(e).toBeInstanceOf(EngineError);
        const { code, path, message } = e as EngineError;
        return { code, path, message };
      });
      const direct = cases().map((task) => {
        const { code, path, message } = engineErrorOf(() => generate(task));
        return { code, path, message };
      });
      expect(seen).toEqual(direct);
      expect(seen.map(({ code, path }) => [code, path])).toEqual([
        ['SHAPE_NOT_FOUND', 'presentation.slides[0].shapes[0]'],
        ['MISSING_FILE', 'presentation.template'],
      ]);
      expect(seen[0]!.message).toMatch(/Nope/);
      const ok = await pool.generate({
        payload: titleDeck(1),
        files: new Map([['layouts.pptx', template()]]),
      });
      expect(slideTitles(ok.bytes)).toEqual(['Slide 1']);
      await expectValidPptx(ok.bytes, template());
    });

    it('gives a deck of at most memoryBytes back as bytes and makes no file; a larger one goes into the file', async () => {
      const folder = mkdtempSync(join(tmpdir(), 'deckforge-pool-'));
      try {
        const file = join(folder, 'deck.pptx');
        const task = () => ({ payload: titleDeck(3), files: new Map([['layouts.pptx', template()]]) });
        const held = await pool.generateToFile(task(), file, undefined, 1024 * 1024);
        if (!('bytes' in held)) throw new Error('a small deck came back without its bytes');
        expect(held.bytes.byteLength).toBe(held.byteLength);
        expect(existsSync(file)).toBe(false);
        expect(slideTitles(held.bytes)).toEqual(['Slide 1', 'Slide 2', 'Slide 3']);
        await expectValidPptx(held.bytes, template());

        // A limit below the deck's size: the chunks kept so far and the rest go into the file, in order.
        const written = await pool.generateToFile(task(), file, undefined, 1000);
        expect('bytes' in written).toBe(false);
        const bytes = new Uint8Array(readFileSync(file));
        expect(bytes.byteLength).toBe(written.byteLength);
        expect(slideTitles(bytes)).toEqual(['Slide 1', 'Slide 2', 'Slide 3']);
        await expectValidPptx(bytes, template());
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });

    it('inspects a template', async () => {
      const result = (await pool.inspect(template())) as unknown as { slides: unknown[] };
      expect(result.slides).toHaveLength(10);
    });

    it('makes the render-safe copy of a deck, and refuses a deck that is two archives as the engine does', async () => {
      const deck = template();
      const copy = await pool.renderSafeCopy(Uint8Array.from(deck), { maxPixels: 50_000_000 });
      expect(copy).toMatchObject({ neutralised: 0, visibleSlides: inspect(deck).slides.length });
      await expectValidPptx(copy.bytes, deck);
      const polyglot = twoEndRecords(deck, deck);
      // The engine's own refusal, read before the pool may transfer (detach) the bytes.
      const expected = engineErrorOf(() => renderSafeCopy(polyglot, { maxPixels: 50_000_000 }));
      const error = await pool.renderSafeCopy(polyglot, { maxPixels: 50_000_000 }).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(EngineError);
      expect(error).toMatchObject({ code: expected.code, message: expected.message, path: expected.path });
    });

    it('reads a payload from its text or its value into the engine’s facts; refuses malformed, deep and misshapen ones as the engine does', async () => {
      const deck = titleDeck(2, { resultFileName: 'Read' }) as { presentation: Record<string, unknown> };
      deck.presentation.slides = [
        { slide_index: 0, shapes: [{ name: 'Picture', filename: 'https://example.com/a.png' }] },
        { slide_index: 0, shapes: [{ name: 'Title 1', content: 'https://example.com/b.png' }] },
      ];
      const expected = { accepted: true, facts: payloadFacts(parsePayload(deck)) };
      expect(expected.facts.urls).toEqual([
        { url: 'https://example.com/a.png', template: false },
        { url: 'https://example.com/b.png', template: false },
      ]);
      expect(await pool.readPayload({ payloadText: JSON.stringify(deck) })).toEqual(expected);
      expect(await pool.readPayload({ payload: deck })).toEqual(expected);
      // The engine's own words for text that is not JSON, or nests too deep: line and column, path and limit.
      const refusals = [
        '{"presentation": {"slides": [1,]}}',
        `{"presentation": ${'['.repeat(100)}${']'.repeat(100)}}`,
      ];
      for (const text of refusals) {
        const direct = engineErrorOf(() => {
          checkJsonLimits(text);
          parseJsonText(text);
        });
        const error = await pool.readPayload({ payloadText: text }).then(
          () => null,
          (failure: unknown) => failure,
        );
        expect(error).toBeInstanceOf(EngineError);
        expect(error).toMatchObject({ code: direct.code, message: direct.message, path: direct.path });
      }
      // A document the schema refuses: the refusal, and the templates it still names clearly.
      const misshapen = { presentation: { template: 'layouts.pptx', slides: [{ slide_index: 'first' }] } };
      const schema = engineErrorOf(() => parsePayload(misshapen));
      const reading = await pool.readPayload({ payloadText: JSON.stringify(misshapen) });
      expect(reading.accepted).toBe(false);
      if (reading.accepted) return;
      expect(reading.refusal).toBeInstanceOf(EngineError);
      expect(reading.refusal).toMatchObject({
        code: schema.code,
        message: schema.message,
        path: schema.path,
      });
      expect(reading.outlineTemplates).toEqual(['layouts.pptx']);
    });

    it('runs several tasks at once and answers each with its own result', async () => {
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map((n) =>
          pool.generate({ payload: titleDeck(n), files: new Map([['layouts.pptx', template()]]) }),
        ),
      );
      expect(results.map((r) => r.slideCount)).toEqual([1, 2, 3, 4, 5]);
      // Each answer is its own task's deck, not another's.
      expect(results.map((r) => slideTitles(r.bytes).length)).toEqual([1, 2, 3, 4, 5]);
      for (const result of results) await expectValidPptx(result.bytes, template());
    });
  });
}
