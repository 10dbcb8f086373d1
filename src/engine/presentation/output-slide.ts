import type { TemplateSlide } from './template.js';

/** A slide of the output deck, as the presentation part, sections and app properties need it. */
export interface OutputSlide {
  partName: string;
  id: number;
  /** The template slide it was cloned from; null for slides made from a layout. */
  source: TemplateSlide | null;
  hidden: boolean;
  hasNotes: boolean;
}
