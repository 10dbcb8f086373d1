/**
 * A slide object of `jsonData` (docs/payload.md "Slides", "Tags" and "Validation modes") and the fields it
 * shares with the other entries that name shapes on a template page (masters and layouts, page-request.ts):
 * `template_id`, `shapes`, `tags`, the validation modes.
 */
import type { SlideRequest, Tag, ValidationMode } from './model.js';
import { object } from './object-builder.js';
import {
  arrayOf,
  byJsonType,
  custom,
  described,
  enumOf,
  fail,
  named,
  number,
  refuse,
  string,
  transform,
  type Spec,
} from './schema-builders.js';
import type { ParseContext } from './parse-context.js';
import { shapeSpec } from './shape-request.js';
import { numberAsText, textSpec } from './text-content.js';
import { typedValueSpec } from './typed-value.js';

export const modeSpec = enumOf<ValidationMode>({ strict: 'strict', lenient: 'lenient' });

/** `template_id`: an integer or a string; compared as text, so `1` and `"1"` are the same id. */
export const templateIdSpec: Spec<string> = byJsonType('an integer or a non-empty string', {
  number: transform(number({ integer: true }), (n) => String(n)),
  string: string({ minLength: 1 }),
});

const tagValueSpec: Spec<string> = byJsonType('a string, a number or a typed value {number|date, format}', {
  string: string(),
  number: numberAsText,
  object: transform(typedValueSpec, (typed) => typed.text),
});

const TAG_KEY_EXPECTED = 'a non-empty tag key';
/** Keys are matched after trimming; a key sent with its braces (`{{name}}`) is taken without them. */
const tagKeySpec = custom<string>(TAG_KEY_EXPECTED, { type: 'string', minLength: 1 }, (value, ctx) => {
  let key = typeof value === 'string' ? value.trim() : '';
  if (key.startsWith('{{') && key.endsWith('}}')) key = key.slice(2, -2).trim();
  if (key === '') fail(ctx, TAG_KEY_EXPECTED, value);
  return key;
});

const tagSpec: Spec<Tag> = named(
  'Tag',
  object(
    'a tag object {key, value}',
    { key: tagKeySpec, Key: tagKeySpec, value: tagValueSpec, Value: tagValueSpec },
    (f) => ({ key: (f.key ?? f.Key) as string, value: (f.value ?? f.Value) as string }),
    {
      oneRequired: [
        ['key', 'Key'],
        ['value', 'Value'],
      ],
      exclusive: [
        ['key', 'Key'],
        ['value', 'Value'],
      ],
    },
  ),
);

/** A key given twice: the last value is used (as a later assignment would), with a warning. */
function uniqueTags(tags: Tag[], ctx: ParseContext): Tag[] {
  if (tags.length < 2) return tags;
  const byKey = new Map<string, Tag>();
  tags.forEach((tag, i) => {
    if (byKey.has(tag.key)) {
      ctx.warn(`tag "${tag.key}" is given more than once; the last value is used`, i);
      byKey.delete(tag.key);
    }
    byKey.set(tag.key, tag);
  });
  return byKey.size === tags.length ? tags : [...byKey.values()];
}

export const tagsSpec = transform(
  arrayOf(tagSpec, { expected: 'an array of {key, value} tags' }),
  uniqueTags,
);

/** `all_slides`: only `true` means something. */
const allSlidesSpec = custom<true>('true', { const: true }, (value, ctx) => {
  if (value !== true) fail(ctx, 'true', value);
  return true;
});

/** The fields of a slide object; payload-outline.ts reads some of them on their own. */
export const slideFields = {
  type: described(
    'slide (default): clone a template slide; layout: a new slide from a layout',
    enumOf<SlideRequest['kind']>({ slide: 'slide', layout: 'layout' }),
  ),
  slide_index: described('Zero-based template slide (or layout)', number({ min: 0, integer: true })),
  slide_id: described(
    "Alternative to slide_index: the slide's p:sldId/@id",
    number({ min: 0, integer: true }),
  ),
  all_slides: described(
    'Instead of slide_index: every slide of the template, in order (hidden ones stay hidden); no shapes or notes',
    allSlidesSpec,
  ),
  template_id: described('Which template_list entry (required with template_list)', templateIdSpec),
  shapes: described(
    'Shape fills, applied in order',
    arrayOf(shapeSpec, { expected: 'an array of shape objects' }),
  ),
  notes: described('Speaker notes', textSpec),
  tags: described('Placeholders on this slide only; win over deck tags', tagsSpec),
  tag_validation_mode: described("Overrides the deck's mode", modeSpec),
  shape_validation_mode: described("Overrides the deck's mode", modeSpec),
};

export const slideSpec: Spec<SlideRequest> = named(
  'Slide',
  object(
    'a slide object',
    slideFields,
    (f, ctx): SlideRequest => {
      if (f.all_slides !== undefined) {
        // Each of the slides is its own copy: what to fill names one slide (list it by slide_index).
        for (const key of ['shapes', 'notes', 'type'] as const)
          if (f[key] !== undefined)
            refuse(ctx, `all_slides takes no ${key}; list a slide by slide_index to change it`, key);
      }
      return {
        path: ctx.path(),
        kind: f.type ?? 'slide',
        templateId: f.template_id ?? null,
        select:
          f.all_slides !== undefined
            ? { by: 'all' }
            : f.slide_index !== undefined
              ? { by: 'index', index: f.slide_index }
              : { by: 'id', id: f.slide_id as number },
        shapes: f.shapes ?? [],
        notes: f.notes ?? null,
        tags: f.tags ?? [],
        tagValidation: f.tag_validation_mode ?? null,
        shapeValidation: f.shape_validation_mode ?? null,
      };
    },
    {
      oneRequired: [['slide_index', 'slide_id', 'all_slides']],
      exclusive: [['slide_index', 'slide_id', 'all_slides']],
    },
  ),
);
