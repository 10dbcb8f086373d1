/**
 * Fills one output slide: shapes in payload order, then notes, then `{{tags}}` (slide tags win over deck
 * tags), honouring the validation modes (payload.md "Validation modes").
 */
import { EngineError, type Warning } from './errors.js';
import type { DeckRequest, SlideRequest, Tag } from './payload/model.js';
import type { SlideDraft } from './presentation/deck-builder.js';
import { applyShapeRequests } from './shapes/apply-shape-requests.js';
import { fillText } from './text/fill-text.js';
import { replaceTags } from './text/tags.js';

export interface FillSlideInput {
  draft: SlideDraft;
  slide: SlideRequest;
  deck: DeckRequest;
  warnings: Warning[];
  /** Deck-level tag keys used so far (strict mode checks them once the deck is done). */
  deckTagsUsed: Set<string>;
}

export function fillSlide({ draft, slide, deck, warnings, deckTagsUsed }: FillSlideInput): void {
  // The slide's tree is only made when something is asked of it (an unchanged slide is copied as it is).
  if (slide.shapes.length > 0)
    applyShapeRequests(
      {
        slideRoot: draft.root,
        slidePath: slide.path,
        shapeValidation: slide.shapeValidation ?? deck.shapeValidation,
        addHyperlink: (url) => draft.addHyperlink(url),
        inheritedXfrm: (shape) => draft.inheritedXfrm(shape.element),
        inheritedBodyPr: (shape) => draft.inheritedBodyPr(shape.element),
        warnings,
      },
      slide.shapes,
    );

  if (slide.notes) {
    fillText(draft.notesTextBody(), slide.notes, {
      path: `${slide.path}.notes`,
      // Notes pages carry no hyperlinks of ours: the text stays, the link is dropped with a warning.
      addHyperlink: () => {
        warnings.push({
          path: `${slide.path}.notes`,
          message: 'hyperlinks are not supported in speaker notes; the text was kept without the link',
        });
        return '';
      },
      warnings,
    });
  }

  if (slide.tags.length === 0 && deck.tags.length === 0) return;
  const slideTags = toMap(slide.tags);
  const deckTags = toMap(deck.tags);
  const lookup = (key: string): string | undefined => slideTags.get(key) ?? deckTags.get(key);
  const used = new Set<string>();
  if (draft.mayHoldTags()) for (const key of replaceTags(draft.root, lookup).used) used.add(key);
  if (draft.notes || draft.hasTemplateNotesWithTags())
    for (const key of replaceTags(draft.notesRoot(), lookup).used) used.add(key);
  for (const key of used) if (!slideTags.has(key)) deckTagsUsed.add(key);

  const mode = slide.tagValidation ?? deck.tagValidation;
  for (const key of slideTags.keys()) {
    if (used.has(key)) continue;
    const message = `tag "${key}" is not used on this slide`;
    if (mode === 'strict') throw new EngineError('TAG_NOT_USED', message, `${slide.path}.tags`);
    warnings.push({ path: `${slide.path}.tags`, message });
  }
}

export function unusedDeckTags(deck: DeckRequest, used: ReadonlySet<string>): string[] {
  return deck.tags.map((t) => t.key).filter((key) => !used.has(key));
}

function toMap(tags: readonly Tag[]): Map<string, string> {
  return new Map(tags.map((t) => [t.key.trim(), t.value]));
}
