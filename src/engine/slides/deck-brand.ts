/**
 * A payload's brand made ready for the deck builder (docs/payload.md "Brand"; presentation/template-brand.ts):
 * per template, its theme changes (`presentation.theme`, with the template_list entry's own over it slot by slot)
 * and a filler for each master and layout an entry names, which fills the page's output copy as fill-slide.ts
 * fills a slide (shapes, then tags). Which pages were filled is kept, so that an entry whose page never reached
 * the output (no slide of the deck uses that master) is told as a warning.
 */
import type { Warning } from '../errors.js';
import { fillSlide } from './fill-slide.js';
import type { EmbeddedFamily } from '../fonts/embedded-fonts.js';
import type { DeckRequest, PageRequest, SlideRequest, ThemeChange, TemplateRef } from '../payload/model.js';
import type { PictureImages } from '../pictures/picture-sources.js';
import type { SlideDraft } from '../presentation/slide-draft.js';
import type { Template } from '../presentation/template.js';
import type { DeckBrand, TemplateBrand } from '../presentation/template-brand.js';
import type { PageSource } from './request-checks.js';

export interface PageRun {
  request: DeckRequest;
  warnings: Warning[];
  deckTagsUsed: Set<string>;
  pictures: PictureImages;
}

export interface PreparedBrand {
  brand: DeckBrand;
  /** Warnings for the entries whose master or layout is not in the finished deck. */
  unfilled(): Warning[];
}

export function prepareBrand(
  templates: readonly { ref: TemplateRef; template: Template }[],
  pages: readonly PageSource[],
  fonts: readonly EmbeddedFamily[],
  run: PageRun,
): PreparedBrand {
  const filled = new Set<PageRequest>();
  const byTemplate = new Map<Template, TemplateBrand>();
  for (const { ref, template } of templates) {
    const theme = mergedTheme(run.request.brand.theme, ref.theme ?? null);
    const own = pages.filter((p) => p.template === template);
    if (theme === null && own.length === 0) continue;
    byTemplate.set(template, {
      theme,
      pages: new Map(own.map((p) => [p.partName, filler(p.page, run, filled)])),
    });
  }
  return {
    brand: { templates: byTemplate, fonts },
    unfilled: () =>
      pages
        .filter(({ page }) => !filled.has(page))
        .map(({ page }) => ({
          path: page.path,
          message: `${page.kind} ${page.index} of the template is not in the deck: no slide of the deck uses it, so nothing was filled`,
        })),
  };
}

/** The deck's theme changes with a template's own over them, slot by slot and script by script. */
function mergedTheme(deck: ThemeChange | null, own: ThemeChange | null): ThemeChange | null {
  if (!deck || !own) return own ?? deck;
  return {
    path: own.path,
    colors: { ...deck.colors, ...own.colors },
    fonts: {
      ...((deck.fonts.major ?? own.fonts.major) && { major: { ...deck.fonts.major, ...own.fonts.major } }),
      ...((deck.fonts.minor ?? own.fonts.minor) && { minor: { ...deck.fonts.minor, ...own.fonts.minor } }),
    },
  };
}

function filler(page: PageRequest, run: PageRun, filled: Set<PageRequest>): (draft: SlideDraft) => void {
  const slide: SlideRequest = {
    path: page.path,
    kind: 'slide',
    templateId: page.templateId,
    select: { by: 'index', index: page.index },
    shapes: page.shapes,
    notes: null,
    tags: page.tags,
    tagValidation: null,
    shapeValidation: page.shapeValidation,
  };
  return (draft) => {
    filled.add(page);
    const continued = fillSlide({
      draft,
      slide,
      deck: run.request,
      warnings: run.warnings,
      deckTagsUsed: run.deckTagsUsed,
      outputSlide: { kind: page.kind, index: page.index },
      pictures: run.pictures,
    });
    for (const [path, table] of continued)
      run.warnings.push({
        path,
        message: `table "${table.name}" is on a ${page.kind}, which has no further copies to continue on: the rows that do not fit were left out`,
      });
  };
}
