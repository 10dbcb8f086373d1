import { describe, expect, it } from 'vitest';
import type { Relationship } from '../package/relationships.js';
import { element } from '../xml/index.js';
import {
  HYPERLINK_REL,
  IMAGE_REL,
  relationshipsStillNamed,
  SLIDE_LAYOUT_REL,
  SLIDE_REL,
} from './relationship-policy.js';
import { SlideDraft, type DraftDeck, type DraftSource } from './slide-draft.js';

/** The slide's relationships, counting how often one of them is read (a lookup that scans reads them all). */
function countedRelationships(template: Relationship[]): { rels: Relationship[]; reads: () => number } {
  let reads = 0;
  const rels = new Proxy(template, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { rels, reads: () => reads };
}

function draftOf(rels: Relationship[]): SlideDraft {
  const deck = { slidePartAt: (position: number) => `/ppt/slides/slide${position + 1}.xml` } as DraftDeck;
  const load = () => ({ prolog: '', root: element('p:sld') });
  return new SlideDraft(0, '/ppt/slides/slide1.xml', load, rels, {} as DraftSource, deck, null, false);
}

describe('a slide draft’s relationships', () => {
  it('finds or makes each link and slide jump in one step: 3 000 of each read the relationships a few times, not once per link', () => {
    const template: Relationship[] = [
      { id: 'rId1', type: IMAGE_REL, target: '../media/image1.png', external: false },
      { id: 'rId3', type: HYPERLINK_REL, target: 'https://example.com/0', external: true },
    ];
    const { rels, reads } = countedRelationships(template);
    const draft = draftOf(rels);
    const links = 3_000;
    const ids = new Set<string>();
    for (let i = 0; i < links; i++) {
      ids.add(draft.addHyperlink(`https://example.com/${i}`));
      ids.add(draft.addHyperlink({ slide: i }));
    }
    const readsWhileLinking = reads();
    expect(ids.size).toBe(2 * links); // the first URL was the template's own, the others each new
    expect(draft.addHyperlink('https://example.com/0')).toBe('rId3');
    expect(draft.addHyperlink({ slide: 1234 })).toBe(draft.addHyperlink({ slide: 1234 }));
    expect(rels.filter((r) => r.type === SLIDE_REL)).toHaveLength(links);
    expect(new Set(rels.map((r) => r.id)).size).toBe(rels.length); // no id given twice
    // Scanning the relationships for each link (or for a free id) read them (2 × 3 000)² / 2 = 18 000 000 times.
    expect(readsWhileLinking).toBeLessThan(10 * rels.length);
  });
});

describe('the relationships a written part still names', () => {
  it('keeps those an attribute anywhere in the tree names, and those not named by id; drops the rest', () => {
    const rels: Relationship[] = [
      { id: 'rId1', type: SLIDE_LAYOUT_REL, target: '../slideLayouts/slideLayout1.xml', external: false },
      { id: 'rId2', type: IMAGE_REL, target: '../media/image1.png', external: false },
      { id: 'rId3', type: HYPERLINK_REL, target: 'https://example.com/', external: true },
      { id: 'rId4', type: IMAGE_REL, target: '../media/image2.png', external: false },
    ];
    const root = element('p:sld', {}, [
      element('p:cSld', {}, [
        element('a:blip', { 'r:embed': 'rId2' }),
        element('a:hlinkClick', { 'r:id': 'rId3' }),
      ]),
    ]);
    expect(relationshipsStillNamed(rels, root).map((r) => r.id)).toEqual(['rId1', 'rId2', 'rId3']);
  });
});
