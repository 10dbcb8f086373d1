import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { layoutsTemplate } from '../../../test/support/decks/layouts-template.js';
import { editPart } from '../../../test/support/decks/package-edit.js';
import { TemplateCache } from './template-cache.js';

const sample = new Uint8Array(
  readFileSync(new URL('../../../examples/sample-template.pptx', import.meta.url)),
);

describe('TemplateCache', () => {
  it('returns the same opened template for the same bytes', () => {
    const cache = new TemplateCache();
    expect(cache.open(sample)).toBe(cache.open(Uint8Array.from(sample)));
    expect(cache.size).toBe(1);
  });

  it('evicts the least recently used template past the count or the byte limit', () => {
    const layouts = layoutsTemplate();
    const notes = editPart(layouts, 'ppt/slides/slide10.xml', (xml) => xml.replace('Headers', 'Notes'));
    const byCount = new TemplateCache({ maxEntries: 2 });
    const first = byCount.open(sample);
    byCount.open(layouts);
    byCount.open(sample); // most recently used again
    byCount.open(notes); // evicts layouts, not sample
    expect(byCount.size).toBe(2);
    expect(byCount.open(sample)).toBe(first);

    const byBytes = new TemplateCache({ maxBytes: sample.length + 1 });
    byBytes.open(sample);
    byBytes.open(layouts);
    expect(byBytes.size).toBe(1);
  });
});
