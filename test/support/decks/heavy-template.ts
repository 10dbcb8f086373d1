/**
 * The corpus's heaviest template (poi/…HowWeRefactor.pptx: 28 slides, 7 MB of slide XML, slide 23 alone
 * 1.65 MB) and the payloads the large-deck tests run on it.
 */
import { join } from 'node:path';
import { CORPUS_DIR, readCorpus } from '../corpus/corpus.js';

export const HEAVY_FILE = 'poi/ca.ubc.cs.people_~emhill_presentations_HowWeRefactor.pptx';
export const HEAVY_PATH = join(CORPUS_DIR, HEAVY_FILE);
export const heavyTemplate = (): Uint8Array => readCorpus(HEAVY_FILE);
/** slide_index 23 is this part, and this is its notes page. */
export const HEAVY_SLIDE = 'ppt/slides/slide24.xml';
export const HEAVY_NOTES = 'ppt/notesSlides/notesSlide23.xml';

/** A shape of each of the 28 slides, by slide index (`deckforge inspect`). */
const FIRST_SHAPE = [
  'Date Placeholder 3',
  'Date Placeholder 3',
  'Title 112',
  'Title 112',
  'Title 112',
  'Rectangle 2',
  'Date Placeholder 3',
  'Rectangle 2',
  'Rectangle 2',
  'Rectangle 2',
  'Date Placeholder 3',
  'Rectangle 2',
  'Date Placeholder 3',
  'Rectangle 2',
  'Rectangle 2',
  'Title 1',
  'Date Placeholder 3',
  'Rectangle 2',
  'Date Placeholder 3',
  'Rectangle 2',
  'Rectangle 2',
  'Title 1',
  'Title 1',
  'Date Placeholder 3',
  'Date Placeholder 3',
  'Rectangle 2',
  'Rectangle 2',
  'Picture 2',
];

/**
 * Every slide once, each changed (so each parsed): the template's trees, ~100 MB at once, more than a 64 MB
 * generation budget holds (between 96 and 128 MB are needed).
 */
export function everySlideChanged(template: string): unknown {
  return {
    presentation: {
      template,
      slides: FIRST_SHAPE.map((name, slide_index) => ({ slide_index, shapes: [{ name, is_hidden: false }] })),
    },
  };
}

/** Copies of slide 23, nothing changed: each is the template part's bytes. */
export function copiesOfHeavySlide(template: string, count: number): unknown {
  return {
    presentation: { template, slides: Array.from({ length: count }, () => ({ slide_index: 23 })) },
  };
}
