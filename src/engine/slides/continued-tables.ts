/**
 * The output slides one slide request makes: the slide itself, then, when a table on it asks for
 * `"overflow": "continue"` and its rows do not fit, copies of the same template slide right after it, each
 * filled as the payload asks (the same shapes, notes and tags) and showing the next rows of the table
 * (docs/payload-tables.md). Copies are ordinary output slides: they count in the slide count.
 */
import type { AccessibilityReport } from '../accessibility/accessibility-report.js';
import { EngineError, type Warning } from '../errors.js';
import { fillSlide, type ContinuedTables, type WholeTemplateTags } from './fill-slide.js';
import type { DeckRequest, SlideRequest } from '../payload/model.js';
import type { PictureImages } from '../pictures/picture-sources.js';
import type { DeckBuilder } from '../presentation/deck-builder.js';
import { slideCountText } from './slide-count-text.js';

export interface SlideRun {
  deck: DeckBuilder;
  request: DeckRequest;
  warnings: Warning[];
  deckTagsUsed: Set<string>;
  /** The request's images, each looked up once however many shapes use it. */
  pictures: PictureImages;
  /** Most output slides the deck may have, copies included. */
  maxSlides: number;
  /** Slide requests in the payload (each makes one output slide, or more with its copies). */
  requestedSlides: number;
  /** Output slides made so far, copies included. */
  slideCount: number;
  /** Reads each output slide as it is written (`presentation.accessibility`). */
  accessibility: AccessibilityReport;
  /** The tags of the `all_slides` entry being written, judged at its last slide (fill-slide.ts). */
  wholeTemplate?: WholeTemplateTags;
}

/** Drafts, fills and commits output slide `position` and its continuation copies; counts them in `run`. */
export function makeSlides(run: SlideRun, slide: SlideRequest, position: number): void {
  const { deck, request, warnings, deckTagsUsed, pictures } = run;
  const draft = deck.draft(position);
  if (slide.wholeTemplate?.slide === 0) run.wholeTemplate = { used: new Set(), firstSlide: run.slideCount };
  let continuing = fillSlide({
    draft,
    slide,
    deck: request,
    warnings,
    deckTagsUsed,
    pictures,
    outputSlide: run.slideCount,
    ...(slide.wholeTemplate && run.wholeTemplate ? { wholeTemplate: run.wholeTemplate } : {}),
  });
  run.accessibility.checkSlide(deck.commit(draft), slide, run.slideCount);
  run.slideCount++;
  const slidesOf = new Map<string, { name: string; slides: number }>();
  while (continuing.size > 0) {
    checkLimit(run, position, continuing);
    for (const [path, table] of continuing) {
      const entry = slidesOf.get(path) ?? { name: table.name, slides: 1 };
      entry.slides++;
      slidesOf.set(path, entry);
    }
    const copy = deck.draft(position, true);
    // A copy repeats the slide's fill, and so would its warnings: only new ones are kept.
    const copyWarnings: Warning[] = [];
    continuing = fillSlide({
      draft: copy,
      slide,
      deck: request,
      warnings: copyWarnings,
      deckTagsUsed,
      pictures,
      outputSlide: run.slideCount,
      continuing,
    });
    run.accessibility.checkSlide(deck.commit(copy), slide, run.slideCount);
    run.slideCount++;
    for (const warning of copyWarnings)
      if (!warnings.some((w) => w.path === warning.path && w.message === warning.message))
        warnings.push(warning);
  }
  for (const [path, { name, slides }] of slidesOf) {
    warnings.push({
      path,
      message: `table "${name}" took ${slides} slides: it continued on ${slides - 1} ${slides === 2 ? 'copy' : 'copies'} of the slide`,
    });
  }
}

/** A request's slides plus the copies made so far, and one more, must stay within the limit. */
function checkLimit(run: SlideRun, position: number, continuing: ContinuedTables): void {
  const later = run.requestedSlides - position - 1;
  if (run.slideCount + 1 + later <= run.maxSlides) return;
  const [path, table] = [...continuing][0]!;
  throw new EngineError(
    'TOO_MANY_SLIDES',
    `table "${table.name}" continues on more slides than a deck may have: with its continuation slides the ` +
      `deck would have more than ${slideCountText(run.maxSlides)}; send fewer rows or split the table over several requests`,
    path,
  );
}
