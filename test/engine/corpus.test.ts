/**
 * Compatibility: every valid deck of the shared corpus, all of its slides cloned in reverse order plus the
 * first slide twice more, every text shape of every clone filled with a distinct string. The output must
 * pass the package invariants and gain no validator error, and each string must be on its own slide.
 */
import { expect, it } from 'vitest';
import { EngineError, generate, inspect } from '../../src/engine/index.js';
import { corpusFiles, describeCorpus, readCorpus } from '../support/corpus/corpus.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';

const decks = corpusFiles();
const usable = decks.filter((d) => !d.strict && d.slides > 0);
/** The Open XML SDK validator needs minutes on the few decks with megabyte-sized slides. */
const TIMEOUT = 600_000;

describeCorpus('corpus', () => {
  it('covers the whole corpus', () => {
    expect(decks.length).toBeGreaterThan(90);
  });

  it.each(usable.map((d) => [d.file, d] as const))(
    '%s: clones every slide, fills every text shape',
    async (_name, deck) => {
      const template = readCorpus(deck);
      const before = inspect(template);
      const order = [...before.slides.map((s) => s.index).reverse(), 0, 0];
      const slides = order.map((index, position) => ({
        slide_index: index,
        shapes: textShapes(before, index).map((id) => ({ shapeId: id, content: marker(position, id) })),
      }));
      const result = generate({
        payload: { presentation: { template: 'template.pptx', slides } },
        files: new Map([['template.pptx', template]]),
      });
      expect(result.slideCount).toBe(order.length);

      const after = inspect(result.bytes);
      expect(after.slides).toHaveLength(order.length);
      after.slides.forEach((slide, position) => {
        const source = before.slides[order[position]!]!;
        expect(
          slide.shapes.map((s) => s.id),
          `slide ${position} keeps the shapes of template slide ${source.index}`,
        ).toEqual(source.shapes.map((s) => s.id));
        for (const id of textShapes(before, source.index)) {
          expect(slide.shapes.find((s) => s.id === id)?.text, `slide ${position}, shape #${id}`).toBe(
            marker(position, id),
          );
        }
      });
      await expectValidPptx(result.bytes, template);
    },
    TIMEOUT,
  );

  it.each(decks.filter((d) => !d.strict && d.slides === 0).map((d) => [d.file, d] as const))(
    '%s (no slides): a slide from each layout',
    async (_name, deck) => {
      const template = readCorpus(deck);
      const layouts = inspect(template).layouts;
      expect(layouts.length).toBeGreaterThan(0);
      const result = generate({
        payload: {
          presentation: {
            template: 't.pptx',
            slides: layouts.map((l) => ({ type: 'layout', slide_index: l.index })),
          },
        },
        files: new Map([['t.pptx', template]]),
      });
      expect(inspect(result.bytes).slides.map((s) => s.layout)).toEqual(layouts.map((l) => l.name));
      await expectValidPptx(result.bytes, template);
    },
    TIMEOUT,
  );

  it.each(decks.filter((d) => d.strict).map((d) => [d.file, d] as const))(
    '%s: ISO Strict is refused with a clear error',
    (_name, deck) => {
      const run = (): unknown =>
        generate({
          payload: { presentation: { template: 't.pptx', slides: [{ slide_index: 0 }] } },
          files: new Map([['t.pptx', readCorpus(deck)]]),
        });
      expect(run).toThrow(EngineError);
      expect(run).toThrow(/Strict/);
    },
  );
});

function marker(position: number, shapeId: number): string {
  return `S${position}-shape${shapeId}`;
}

/** Ids of the shapes that hold text (not groups, pictures, tables, charts), unique per slide. */
function textShapes(result: ReturnType<typeof inspect>, slideIndex: number): number[] {
  const shapes = result.slides[slideIndex]?.shapes ?? [];
  const ids = shapes.filter((s) => s.kind === 'text').map((s) => s.id);
  // A duplicated id makes shapeId ambiguous: such shapes are left as they are.
  return ids.filter((id) => shapes.filter((s) => s.id === id).length === 1);
}
