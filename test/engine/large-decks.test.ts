/**
 * Large decks through the engine: a deck streams into the caller's sink as it is built, a deck past
 * 65 535 parts is a ZIP64 package that still passes the checks, and copies of a slide nobody changes are the
 * template slide's bytes apart from what must differ.
 *
 * The Open XML SDK validator takes minutes on a package of 65 000 parts (an 80 000-part one: ~7 minutes), so
 * the large deck is checked with the package invariants and read back in full, and the validator judges a
 * small deck made by the same payload shape: every part kind, relationship and content type of the large one
 * is in the small one; only their number differs.
 */
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { generate, inspect } from '../../src/engine/index.js';
import { itCorpus, readCorpus } from '../support/corpus/corpus.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../support/decks/layouts-template.js';
import { checkPackageInvariantsAgainst } from '../support/checks/package-invariants.js';
import { slidePartsInOrder } from '../support/readers/zip-file.js';
import { paragraphs, parts, run, slideParts } from '../support/decks/deck.js';

const LAYOUTS = layoutsTemplate();
const BODY = ['Subtitle 2', 'Content Placeholder 2', 'Text Placeholder 2'];

/** N slides cycling template slides 0–2, title and body filled, notes written: 4 parts a slide. */
function textDeck(count: number): Record<string, unknown> {
  return {
    slides: Array.from({ length: count }, (_, i) => ({
      slide_index: i % 3,
      shapes: [
        { name: 'Title 1', content: `Slide ${i + 1} title` },
        { name: BODY[i % 3], content: `Body of slide ${i + 1}` },
      ],
      notes: `Notes of slide ${i + 1}`,
    })),
  };
}

function streamed(count: number): { bytes: Uint8Array; chunks: number[] } {
  const chunks: Uint8Array[] = [];
  const summary = generate({
    payload: { presentation: { template: 'layouts.pptx', ...textDeck(count) } },
    files: new Map([['layouts.pptx', LAYOUTS]]),
    output: { write: (chunk) => void chunks.push(Buffer.from(chunk)) },
  });
  const bytes = Buffer.concat(chunks);
  expect(summary.byteLength).toBe(bytes.length);
  return { bytes, chunks: chunks.map((c) => c.length) };
}

/** The item names in archive order, from the local headers (what a streaming reader meets first). */
function localOrder(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const names: string[] = [];
  for (let pos = 0; view.getUint32(pos, true) === 0x04034b50;) {
    const nameLength = view.getUint16(pos + 26, true);
    const extraLength = view.getUint16(pos + 28, true);
    names.push(Buffer.from(bytes.subarray(pos + 30, pos + 30 + nameLength)).toString('utf8'));
    pos += 30 + nameLength + extraLength + view.getUint32(pos + 18, true);
  }
  return names;
}

describe('a deck past 65 535 parts', () => {
  it('streams out as a ZIP64 package: every slide and note in order, the invariants hold', () => {
    const count = 16_400;
    const { bytes, chunks } = streamed(count);
    // It left in pieces, as it was built: slides first, the parts only known at the end (presentation,
    // content types) last.
    expect(chunks.length).toBeGreaterThan(100);
    expect(Math.max(...chunks)).toBeLessThanOrEqual(256 * 1024);
    const order = localOrder(bytes);
    expect(order[0]).toBe('_rels/.rels');
    // The last slide went out before the presentation part, which is only written once all are committed.
    const lastSlide = Math.max(
      ...order.flatMap((name, i) => (/^ppt\/slides\/slide\d+\.xml$/.test(name) ? [i] : [])),
    );
    expect(lastSlide).toBeLessThan(order.indexOf('ppt/presentation.xml'));
    expect(order.at(-1)).toBe('[Content_Types].xml');

    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const eocd = bytes.length - 22;
    expect(view.getUint16(eocd + 10, true)).toBe(0xffff); // the count no longer fits…
    expect(view.getUint32(eocd - 20, true)).toBe(0x07064b50); // …so a ZIP64 locator and record say it
    const record = Number(view.getBigUint64(eocd - 20 + 8, true));
    expect(Number(view.getBigUint64(record + 32, true))).toBe(order.length);
    expect(order.length).toBeGreaterThan(65_535);

    expect(checkPackageInvariantsAgainst(bytes, LAYOUTS)).toEqual([]);

    const all = unzipSync(bytes);
    const text = (name: string) => new TextDecoder().decode(all[name]);
    const slides = slidePartsInOrder(text);
    expect(slides).toHaveLength(count);
    slides.forEach((slide, i) => {
      expect(paragraphs(text(slide))).toContain(`Slide ${i + 1} title`);
      const rels = text(slide.replace(/slides\/(slide\d+\.xml)$/, 'slides/_rels/$1.rels'));
      const notes = /Target="\.\.\/notesSlides\/(notesSlide\d+\.xml)"/.exec(rels)?.[1];
      expect(paragraphs(text(`ppt/notesSlides/${notes}`))).toContain(`Notes of slide ${i + 1}`);
    });
  });

  it('is, in small, a deck the validator accepts (the same payload shape, 12 slides)', async () => {
    const { bytes } = streamed(12);
    expect(slideParts(bytes)).toHaveLength(12);
    await expectValidPptx(bytes, LAYOUTS);
  });
});

describe('copies of a slide nobody changes', () => {
  itCorpus('are the template slide apart from their own p14:creationId', async () => {
    const template = readCorpus('Open-XML-SDK/Presentation.pptx');
    const original = parts(template).get('ppt/slides/slide1.xml')!;
    const result = run(template, { slides: [0, 0, 0, 0].map((slide_index) => ({ slide_index })) });
    const out = parts(result.bytes);
    const copies = slideParts(result.bytes).map((name) => out.get(name)!);
    const ids = copies.map((xml) => /<p14:creationId [^>]*val="(\d+)"/.exec(xml)?.[1]);
    expect(new Set(ids).size).toBe(4);
    const withoutId = (xml: string) => xml.replace(/(<p14:creationId [^>]*val=")\d+/, '$1');
    for (const copy of copies) expect(withoutId(copy)).toBe(withoutId(original));
    await expectValidPptx(result.bytes, template);
  });
});

describe('inspect', () => {
  itCorpus("reports each slide's XML size, so the heavy slides of a template stand out", () => {
    const template = readCorpus('poi/ca.ubc.cs.people_~emhill_presentations_HowWeRefactor.pptx');
    const sizes = inspect(template).slides.map((slide) => slide.xmlBytes);
    expect(sizes[23]).toBe(1_686_784); // the part's uncompressed size in the zip
    expect(Math.max(...sizes)).toBe(sizes[23]);
    expect(sizes[1]).toBeLessThan(10_000);
  });
});
