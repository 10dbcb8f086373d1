/**
 * What a payload's brand changes in a deck (docs/payload.md "Brand"), as the deck builder needs it: per template,
 * its theme and the masters and layouts whose shapes are filled; for the deck, the font families it embeds. The
 * builder applies a template's brand to the template's own parts when the deck is built on it, and to the
 * copies when the template is imported (template-import.ts), so two templates never share a changed part.
 */
import type { Relationship } from '../package/relationships.js';
import type { EmbeddedFamily } from '../fonts/embedded-fonts.js';
import type { ThemeChange } from '../payload/model.js';
import type { XmlDocument } from '../xml/index.js';
import type { SlideDraft } from './slide-draft.js';
import type { Template } from './template.js';

export interface TemplateBrand {
  /** The theme changes of this template (presentation.theme with its template_list entry's own over it). */
  theme: ThemeChange | null;
  /** Master or layout part → what fills its output copy, given a draft of it (fill-pages.ts makes these). */
  pages: ReadonlyMap<string, (draft: SlideDraft) => void>;
}

export interface DeckBrand {
  templates: ReadonlyMap<Template, TemplateBrand>;
  fonts: readonly EmbeddedFamily[];
}

export const NO_BRAND: DeckBrand = { templates: new Map(), fonts: [] };

/**
 * Changes the copy `document` of a part that goes to the output as `outputPart` with `relationships` (which it
 * may change in place), and returns the XML to write.
 */
export type PartEditor = (document: XmlDocument, outputPart: string, relationships: Relationship[]) => string;
