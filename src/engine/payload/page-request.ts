/**
 * `presentation.masters` and `presentation.layouts` (docs/payload.md "Brand"): shapes filled on a slide master
 * or a slide layout, with everything a slide's shape entry takes, so that a logo or a footer appears on every
 * slide that shows that master or layout. Masters are counted in presentation.xml's order, layouts as
 * `"type": "layout"` counts them (master by master), as `inspect` lists both.
 */
import type { PageRequest } from './model.js';
import { object, required } from './object-builder.js';
import { arrayOf, described, named, number, type Spec } from './schema-builders.js';
import { slideFields, tagsSpec } from './slide-request.js';

/** A template has a handful of masters and a few dozen layouts; the bound keeps a payload's work small. */
const MAX_PAGE_ENTRIES = 100;

function pageSpec(kind: PageRequest['kind']): Spec<PageRequest> {
  const noun = kind === 'master' ? 'slide master' : 'slide layout';
  return named(
    kind === 'master' ? 'MasterEntry' : 'LayoutEntry',
    object(
      `a ${kind} object {index, shapes}`,
      {
        index: required(
          described(
            kind === 'master'
              ? 'Zero-based slide master, in the order inspect lists them'
              : 'Zero-based slide layout, counted as "type": "layout" counts them',
            number({ min: 0, integer: true }),
          ),
        ),
        template_id: described(
          'Which template_list entry (required with template_list)',
          slideFields.template_id,
        ),
        shapes: described(`Shape fills on the ${noun}, applied in order`, slideFields.shapes),
        tags: described(`{{key}} replacements on the ${noun}; win over deck tags`, tagsSpec),
        shape_validation_mode: described("Overrides the deck's mode", slideFields.shape_validation_mode),
      },
      (f, ctx): PageRequest => ({
        path: ctx.path(),
        kind,
        templateId: f.template_id ?? null,
        index: f.index,
        shapes: f.shapes ?? [],
        tags: f.tags ?? [],
        shapeValidation: f.shape_validation_mode ?? null,
      }),
    ),
  );
}

export function pagesSpec(kind: PageRequest['kind']): Spec<PageRequest[]> {
  return arrayOf(pageSpec(kind), {
    maxItems: MAX_PAGE_ENTRIES,
    expected: `an array of ${kind} objects {index, shapes}`,
  });
}
