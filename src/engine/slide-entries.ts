/**
 * The payload's slide entries made final once the templates are open: `{"all_slides": true}` becomes one entry
 * per slide of its template, and `{"slide": N}` links are checked against the entries that result
 * (docs/payload.md, Slides and Links between slides).
 */
import { EngineError, type Warning } from './errors.js';
import type { SlideLink, SlideRequest } from './payload/model.js';
import type { Template } from './presentation/template.js';
import { slideCountText } from './slide-count-text.js';

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
