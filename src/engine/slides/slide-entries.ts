/**
 * The payload's slide entries made final once the templates are open: `{"all_slides": true}` becomes one entry
 * per slide of its template, and `{"slide": N}` links are checked against the entries that result
 * (docs/payload.md, Slides and Links between slides).
 */
import { EngineError, type Warning } from '../errors.js';
import type { SlideLink, SlideRequest } from '../payload/model.js';
import type { PayloadFacts } from '../payload/payload-facts.js';
import { templateSlideCount, type Template } from '../presentation/template.js';
import { slideCountText } from './slide-count-text.js';

/**
 * Output slides a request asks for, for the slide limits and the usage allowance: one per `slides` entry, and
 * for an `all_slides` entry as many as its template lists, when the template is among `files` (a template still
 * to be downloaded, or one that does not open, counts as one until the engine opens it). Long tables with
 * `"overflow": "continue"` may add slides: `GenerateResult.slideCount` counts those too.
 */
export function countRequestedSlides(
  facts: Pick<PayloadFacts, 'slideCount' | 'wholeTemplates'>,
  files: ReadonlyMap<string, Uint8Array>,
): number {
  const counted = new Map<string, number>();
  let total = facts.slideCount;
  for (const source of facts.wholeTemplates) {
    const bytes = files.get(source);
    if (bytes === undefined) continue;
    let slides = counted.get(source);
    if (slides === undefined) {
      slides = slidesListed(bytes);
      counted.set(source, slides);
    }
    total += slides - 1;
  }
  return total;
}

function slidesListed(bytes: Uint8Array): number {
  try {
    return templateSlideCount(bytes);
  } catch (error) {
    if (error instanceof EngineError) return 1; // the engine refuses the template with the reason
    throw error;
  }
}

/** An `all_slides` expansion past the deck's slide limit is refused before any slide is made. */
export function checkExpandedSlideCount(slides: readonly SlideRequest[], maxSlides: number): void {
  if (slides.length <= maxSlides) return;
  throw new EngineError(
    'TOO_MANY_SLIDES',
    `the deck would have ${slideCountText(slides.length)} (all_slides entries expanded), more than ${slideCountText(maxSlides)}; list fewer slides or split the request`,
    'presentation.slides',
  );
}

export function expandWholeTemplates(
  slides: readonly SlideRequest[],
  templateOf: (slide: SlideRequest) => Template,
  warnings: Warning[],
): SlideRequest[] {
  if (!slides.some((s) => s.select.by === 'all')) return slides as SlideRequest[];
  return slides.flatMap((slide) => {
    if (slide.select.by !== 'all') return [slide];
    const template = templateOf(slide);
    if (template.slides.length === 0)
      warnings.push({
        path: `${slide.path}.all_slides`,
        message: 'the template has no slides; none were added',
      });
    // Hidden slides stay hidden: each is copied as the template has it (p:sld/@show).
    const slides = template.slides.length;
    return template.slides.map((_, index): SlideRequest => ({
      ...slide,
      select: { by: 'index', index },
      wholeTemplate: { slide: index, slides },
    }));
  });
}

/** A link to a slide the output does not have is refused, naming the link. */
export function checkSlideLinks(links: readonly SlideLink[], slideCount: number): void {
  for (const link of links) {
    if (link.slide < slideCount) continue;
    throw new EngineError(
      'INVALID_PAYLOAD',
      `expected the index of an output slide (0–${slideCount - 1}: the deck has ${slideCountText(slideCount)}), got ${link.slide}`,
      link.path,
    );
  }
}
