/**
 * Accessible output, SmartArt text and typed values on real decks of the corpus (docs/payload.md, Accessibility,
 * SmartArt, Numbers and dates). Every output passes the package invariants and the validator against its
 * template, and LibreOffice renders it: the SmartArt texts the drawing shows, and the formatted values, are read
 * back from the PDF. Each SmartArt given one text more than it has nodes grows or is refused with the reason.
 */
import { expect, it } from 'vitest';
import { EngineError, generate, inspect, type GenerateResult } from '../../src/engine/index.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { engineErrorOf } from '../support/checks/engine-error.js';
import { corpusFiles, describeCorpus, readCorpus } from '../support/corpus/corpus.js';
import { renderToPdfText } from '../support/readers/render.js';
import { parts, slideParts } from '../support/decks/deck.js';

const TIMEOUT = 600_000;

function run(template: Uint8Array, presentation: Record<string, unknown>): GenerateResult {
  return generate({
    payload: { presentation: { template: 't.pptx', ...presentation } },
    files: new Map([['t.pptx', template]]),
  });
}

/** The engine's output, or the EngineError it refused with (anything else fails the test). */
function generatedOrRefused(
  template: Uint8Array,
  presentation: Record<string, unknown>,
): GenerateResult | EngineError {
  try {
    return run(template, presentation);
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
}

/** The rendered deck's text with every blank removed: LibreOffice breaks text in narrow boxes anywhere. */
async function renderedText(bytes: Uint8Array): Promise<string> {
  return (await renderToPdfText(bytes)).join('').replace(/\s+/g, '');
}

/**
 * Three letters, unlike any word of the decks: narrow SmartArt boxes break longer texts, and pdftotext mixes the
 * lines of boxes side by side.
 */
function token(n: number): string {
  const letters = 'bcdfghjkmnpqrstvwxz';
  return `Q${letters[Math.floor(n / letters.length) % letters.length]}${letters[n % letters.length]}`;
}

const smartArtDecks = corpusFiles().filter((d) => !d.strict && d.features.includes('smartart'));

describeCorpus('SmartArt text on the corpus', () => {
  it('covers the 10 decks that have SmartArt', () => {
    expect(smartArtDecks.map((d) => d.file)).toHaveLength(10);
  });

  it.each(smartArtDecks.map((d) => [d.file, d] as const))(
    '%s: each SmartArt gets two node texts, in its data model, its drawing and the PDF',
    async (_name, deck) => {
      const template = readCorpus(deck);
      // Every slide in order (a subset of some decks, filled or not, makes LibreOffice 7.4 crash), each SmartArt
      // with two short texts.
      let next = 0;
      const given = new Map<string, string[]>();
      const slides = inspect(template).slides.map((slide) => ({
        slide_index: slide.index,
        shapes: slide.shapes
          .filter((s) => (s.smartart?.nodes.length ?? 0) > 0)
          .map((s) => {
            const texts = ['a', 'b'].slice(0, s.smartart!.nodes.length).map(() => token(next++));
            given.set(`${slide.index}/${s.id}`, texts);
            return { shapeId: s.id, content: texts };
          }),
      }));
      expect(given.size).toBeGreaterThan(0);
      const result = run(template, { slides });
      await expectValidPptx(result.bytes, template);

      // The data model, read back the way inspect reads a template: the texts given, and no other node.
      const output = inspect(result.bytes);
      for (const [key, texts] of given) {
        const [slide, id] = key.split('/').map(Number);
        const filled = output.slides[slide!]!.shapes.find((s) => s.id === id);
        expect(filled?.smartart?.nodes.map((n) => n.text)).toEqual(texts);
      }
      // What the drawings show is what the PDF shows; a deck without drawings (Office 2007's first files) is
      // laid out by LibreOffice itself from the data model, and shows at least each graphic's first node.
      const drawings = [...parts(result.bytes).entries()].filter(([name]) =>
        /^ppt\/diagrams\/drawing\d+\.xml$/.test(name),
      );
      const shown =
        drawings.length > 0
          ? drawings.flatMap(([, xml]) =>
              [...xml.matchAll(/<a:t>(Q[bcdfghjkmnpqrstvwxz]{2})<\/a:t>/g)].map((m) => m[1]!),
            )
          : [...given.values()].map((texts) => texts[0]!);
      expect(shown.length).toBeGreaterThan(0);
      const text = await renderedText(result.bytes);
      for (const token of shown) expect(text).toContain(token);
    },
    TIMEOUT,
  );
});

/**
 * The corpus SmartArts that take one node more: their top-level nodes' boxes form a row, column or grid (Basic
 * Process, Horizontal Bullet List, Basic Block List). The rest are refused with the reason (hierarchies,
 * matrices, Venn diagrams, a graphic with one top-level node, drawings PowerPoint left empty or did not write).
 */
const GROWING: Record<string, number> = {
  'python-pptx/shp-shapes.pptx': 1,
  'poi/customGeo.pptx': 1,
  'Open-XML-SDK/Presentation.pptx': 1,
};

describeCorpus('SmartArt nodes added on the corpus', () => {
  it.each(smartArtDecks.map((d) => [d.file, d] as const))(
    '%s: one text more than nodes adds a node (a valid package, the PDF showing it) or is refused with the reason',
    async (_name, deck) => {
      const template = readCorpus(deck);
      let grown = 0;
      for (const slide of inspect(template).slides) {
        for (const shape of slide.shapes.filter((s) => (s.smartart?.nodes.length ?? 0) > 0)) {
          const nodes = shape.smartart!.nodes;
          const texts = [...nodes.map((_, i) => token(i)), token(nodes.length)];
          const payload = {
            slides: [{ slide_index: slide.index, shapes: [{ shapeId: shape.id, content: texts }] }],
          };
          const result = generatedOrRefused(template, payload);
          if (result instanceof EngineError) {
            expect(result.code).toBe('CONTENT_MISMATCH');
            expect(result.message).toMatch(
              new RegExp(`new nodes cannot be placed: [^;]+; send at most ${nodes.length}, or add nodes`),
            );
            continue;
          }
          grown++;
          await expectValidPptx(result.bytes, template);
          const filled = inspect(result.bytes).slides[0]!.shapes.find((s) => s.id === shape.id);
          expect(filled?.smartart?.nodes).toEqual([
            ...nodes.map((node, i) => ({ text: texts[i], level: node.level })),
            { text: token(nodes.length), level: 0 },
          ]);
          const drawings = [...parts(result.bytes).entries()].filter(([name]) =>
            /^ppt\/diagrams\/drawing\d+\.xml$/.test(name),
          );
          expect(drawings.some(([, xml]) => xml.includes(`<a:t>${token(nodes.length)}</a:t>`))).toBe(true);
          expect(await renderedText(result.bytes)).toContain(token(nodes.length));
        }
      }
      expect(grown).toBe(GROWING[deck.file] ?? 0);
    },
    TIMEOUT,
  );
});

/** Decks with pictures, charts and tables (and a SmartArt), each checked whole. */
const ACCESSIBILITY_DECKS = [
  'pptx-automizer/ShapeTypesCollection.pptx',
  'pptx-automizer/SlideWithTables.pptx',
  'python-pptx/ph-populated-placeholders.pptx',
];
const DESCRIBED_KINDS = new Set(['picture', 'chart', 'table', 'group']);

describeCorpus('accessibility on the corpus', () => {
  it.each(ACCESSIBILITY_DECKS)(
    '%s: the report names each undescribed shape; alt_text on each silences it; require refuses the deck as it was',
    async (file) => {
      const template = readCorpus(file);
      const report = run(template, { accessibility: 'report', slides: [{ all_slides: true }] });
      await expectValidPptx(report.bytes, template);
      const missing = report.warnings.filter((w) => w.code === 'ACCESSIBILITY_NO_ALT_TEXT');
      expect(missing.length).toBeGreaterThan(0);
      for (const warning of missing)
        expect(warning.message).toMatch(
          /^output slide \d+: (picture|chart|table|group) ".*" has no alternative text/,
        );

      const slides = inspect(template).slides.map((slide) => ({
        slide_index: slide.index,
        shapes: slide.shapes
          .filter(
            (s) => DESCRIBED_KINDS.has(s.kind) && slide.shapes.filter((o) => o.id === s.id).length === 1,
          )
          .map((s) => ({ shapeId: s.id, alt_text: `Described ${s.name}`, alt_title: s.name })),
      }));
      const described = run(template, { accessibility: 'report', slides });
      await expectValidPptx(described.bytes, template);
      expect(described.warnings.filter((w) => w.code === 'ACCESSIBILITY_NO_ALT_TEXT')).toEqual([]);
      const all = parts(described.bytes);
      slideParts(described.bytes).forEach((part, i) => {
        const tags = [...(all.get(part) ?? '').matchAll(/<p:cNvPr [^>]*>/g)].map((m) => m[0]);
        for (const shape of slides[i]!.shapes) {
          const tag = tags.find((t) => t.includes(` id="${shape.shapeId}"`));
          expect(tag).toContain(`descr="${shape.alt_text}"`);
        }
      });
      // It still renders, one page per shown slide.
      expect((await renderToPdfText(described.bytes)).length).toBeGreaterThan(0);

      const refused = engineErrorOf(() =>
        run(template, { accessibility: 'require', slides: [{ all_slides: true }] }),
      );
      expect(refused.code).toBe('INACCESSIBLE_OUTPUT');
      const count = report.warnings.filter((w) => w.code !== undefined).length;
      expect(refused.message).toMatch(
        count === 1 ? /accessibility: "require"/ : new RegExp(`^${count} problems`),
      );
    },
    TIMEOUT,
  );
});

describeCorpus('typed values on the corpus', () => {
  it(
    'pptx-automizer/SlideWithTables.pptx: a date in the title and numbers in a table, in German, in the PDF',
    async () => {
      const template = readCorpus('pptx-automizer/SlideWithTables.pptx');
      const result = run(template, {
        locale: 'de-DE',
        slides: [
          {
            slide_index: 0,
            shapes: [
              { name: 'Titel 4', content: { date: '2026-03-05', format: 'd. mmmm yyyy' } },
              {
                name: 'TableWithHeader',
                content: [
                  ['Region', 'Umsatz', 'Anteil'],
                  [
                    'Nord',
                    { number: 1234567.891, format: '#,##0.00 [$€-407]' },
                    { number: 0.256, format: '0.0%' },
                  ],
                ],
                unspecified_cells: 'clear',
              },
            ],
          },
        ],
      });
      await expectValidPptx(result.bytes, template);
      const text = await renderedText(result.bytes);
      expect(text).toContain('5.März2026');
      expect(text).toContain('1.234.567,89€');
      expect(text).toContain('25,6%');
    },
    TIMEOUT,
  );
});
