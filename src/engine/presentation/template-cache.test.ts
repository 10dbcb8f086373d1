import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectValidPptx } from '../../../test/support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../../../test/support/decks/layouts-template.js';
import { editPart } from '../../../test/support/decks/package-edit.js';
import { slideTexts } from '../../../test/support/readers/pptx-reading.js';
import { generate } from '../generate.js';
import { TemplateCache } from './template-cache.js';

const sample = new Uint8Array(
  readFileSync(new URL('../../../examples/sample-template.pptx', import.meta.url)),
);
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Ten copies of the first slide, its tags filled: a deck that parses and clones the slide. */
function deckFrom(template: Uint8Array, cache?: TemplateCache, fileHashes?: Map<string, string>): Uint8Array {
  const payload = {
    presentation: {
      template: 'template.pptx',
      slides: Array.from({ length: 10 }, (_, i) => ({
        slide_index: 0,
        tags: [
          { key: 'company', value: 'Acme' },
          { key: 'quarter', value: `Q${i}` },
        ],
      })),
    },
  };
  const files = new Map([['template.pptx', template]]);
  return generate({ payload, files, ...(cache ? { cache } : {}), ...(fileHashes ? { fileHashes } : {}) })
    .bytes;
}

describe('TemplateCache', () => {
  it('returns the same opened template for the same bytes', () => {
    const cache = new TemplateCache();
    expect(cache.open(sample)).toBe(cache.open(Uint8Array.from(sample)));
    expect(cache.size).toBe(1);
  });

  it('holds no more than its byte bound, letting the least recently used go first', () => {
    const layouts = layoutsTemplate();
    const others = [1, 2, 3].map((n) =>
      editPart(layouts, 'ppt/slides/slide10.xml', (xml) => xml.replace('Headers', `Headers ${n}`)),
    );
    // What one of them holds once a deck was made from it: the bound keeps two, not three.
    const one = new TemplateCache();
    deckFrom(layouts, one);
    const bound = Math.floor(one.heldBytes * 2.5);
    expect(one.heldBytes).toBeGreaterThan(layouts.byteLength); // parsed parts are counted, not the file alone

    const cache = new TemplateCache({ maxBytes: bound });
    const [a, b, c] = others as [Uint8Array, Uint8Array, Uint8Array];
    deckFrom(a, cache);
    deckFrom(b, cache);
    expect(cache.size).toBe(2);
    deckFrom(a, cache); // a is now the most recently used
    deckFrom(c, cache);
    expect(cache.heldBytes).toBeLessThanOrEqual(bound);
    expect(cache.size).toBe(2);
    expect(cache.has(sha256(a))).toBe(true);
    expect(cache.has(sha256(b))).toBe(false);
    expect(cache.has(sha256(c))).toBe(true);
    for (const bytes of [layouts, a, b, c]) {
      deckFrom(bytes, cache);
      expect(cache.heldBytes).toBeLessThanOrEqual(bound);
    }
  });

  it('gives a deck byte for byte the same from a cached template as from a fresh one', async () => {
    const uncached = deckFrom(sample);
    const cache = new TemplateCache();
    expect(deckFrom(sample, cache)).toEqual(uncached); // a miss
    const template = cache.open(sample);
    expect(deckFrom(Uint8Array.from(sample), cache)).toEqual(uncached); // a hit, on other bytes alike
    // The hash a caller already knows (a stored template's) finds the same entry.
    const known = new Map([['template.pptx', sha256(sample)]]);
    expect(deckFrom(sample, cache, known)).toEqual(uncached);
    expect(cache.open(sample)).toBe(template);
    expect(cache.size).toBe(1);
    await expectValidPptx(uncached, sample);
  });

  it('opens bytes that differ in one character of one part as another template', () => {
    // Both written alike, so the files have the same size and differ only inside slide1.xml's data.
    const retitled = (title: string): Uint8Array =>
      editPart(sample, 'ppt/slides/slide1.xml', (xml) => xml.replace('Quarterly review', title));
    const before = retitled('Quarterly reviev');
    const after = retitled('Quarterly reviex');
    expect(after.byteLength).toBe(before.byteLength);
    const cache = new TemplateCache();
    const first = deckFrom(before, cache);
    const second = deckFrom(after, cache);
    expect(cache.size).toBe(2);
    expect(slideTexts(first)[0]).toContain('Quarterly reviev');
    expect(slideTexts(second)[0]).toContain('Quarterly reviex');
    expect(slideTexts(second)[0]).not.toContain('Quarterly reviev');
  });

  it('keeps nothing with a bound of 0, and makes the same deck', () => {
    const cache = new TemplateCache({ maxBytes: 0 });
    const uncached = deckFrom(sample);
    expect(deckFrom(sample, cache)).toEqual(uncached);
    expect(deckFrom(sample, cache)).toEqual(uncached);
    expect(cache.size).toBe(0);
    expect(cache.heldBytes).toBe(0);
    expect(cache.open(sample)).not.toBe(cache.open(sample));
  });
});
