/**
 * The envelope and the slides of `jsonData` (docs/payload.md "Presentation", "Slides", "Tags" and "Validation
 * modes"), built into model.ts `DeckRequest`. Cross-field rules live here: one of `template` /
 * `template_list`, unique `template_id`s, and every slide naming an existing `template_id` when
 * `template_list` is used.
 */
import { EngineError } from '../errors.js';
import type {
  AccessibilityMode,
  DeckRequest,
  ExportVersion,
  SlideRequest,
  Tag,
  TemplateRef,
  ValidationMode,
} from './model.js';
import { object, required } from './object-builder.js';
import { sanitiseResultFileName } from './result-file-name.js';
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
import { joinPath, type ParseContext } from './parse-context.js';
import { shapeSpec } from './shape-request.js';
import { numberAsText, textSpec } from './text-content.js';
import { canonicalLocale, DEFAULT_LOCALE } from './locale-text.js';
import { typedValueSpec } from './typed-value.js';

const accessibilitySpec = enumOf<AccessibilityMode>({ off: 'off', report: 'report', require: 'require' });

export const modeSpec = enumOf<ValidationMode>({ strict: 'strict', lenient: 'lenient' });

const exportVersionSpec = enumOf<ExportVersion>({
  Pptx2010: 'Pptx2010',
  Pptx2013: 'Pptx2013',
  Pptx2019: 'Pptx2019',
});

const URL_SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//;
const TEMPLATE_EXPECTED = 'an uploaded file name or an http(s) URL';

/** A template is fetched by the service only over http(s); other URL schemes are refused, not taken as names. */
export const templateSourceSpec = custom<string>(
  TEMPLATE_EXPECTED,
  { type: 'string', minLength: 1, description: TEMPLATE_EXPECTED },
  (value, ctx) => {
    if (typeof value !== 'string' || value.trim() === '') fail(ctx, TEMPLATE_EXPECTED, value);
    const scheme = URL_SCHEME.exec(value)?.[1]?.toLowerCase();
    if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') fail(ctx, TEMPLATE_EXPECTED, value);
    return value;
  },
);

/** `template_id`: an integer or a string; compared as text, so `1` and `"1"` are the same id. */
const templateIdSpec: Spec<string> = byJsonType('an integer or a non-empty string', {
  number: transform(number({ integer: true }), (n) => String(n)),
  string: string({ minLength: 1 }),
});

const tagValueSpec: Spec<string> = byJsonType('a string, a number or a typed value {number|date, format}', {
  string: string(),
  number: numberAsText,
  object: transform(typedValueSpec, (typed) => typed.text),
});

const LOCALE_EXPECTED = 'a BCP 47 language tag this server knows ("en-US", "de-DE", "fr-CH")';
/** `presentation.locale`: the separators and names of typed values (docs/payload.md, Numbers and dates). */
export const localeSpec = custom<string>(
  LOCALE_EXPECTED,
  { type: 'string', minLength: 2, description: LOCALE_EXPECTED, examples: ['en-US', 'de-DE'] },
  (value, ctx) => {
    const canonical = typeof value === 'string' ? canonicalLocale(value) : null;
    if (canonical === null) {
      const meant = typeof value === 'string' ? localeMeant(value) : null;
      if (meant === null) fail(ctx, LOCALE_EXPECTED, value);
      throw new EngineError(
        'INVALID_PAYLOAD',
        `expected ${LOCALE_EXPECTED}, got ${JSON.stringify(value)} (did you mean "${meant}"?)`,
        ctx.path(),
      );
    }
    return canonical;
  },
);

/**
 * The tag a locale written the POSIX way (`de_DE`, `de_DE.UTF-8`, `de_DE@euro`, as `locale` prints them) stands
 * for in BCP 47 (`de-DE`), when this server knows it.
 */
function localeMeant(written: string): string | null {
  const posix = /^([A-Za-z]{2,3})_([A-Za-z]{2}|\d{3})(?:[.@].*)?$/.exec(written.trim());
  return posix ? canonicalLocale(`${posix[1]}-${posix[2]}`) : null;
}

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

const tagsSpec = transform(arrayOf(tagSpec, { expected: 'an array of {key, value} tags' }), uniqueTags);

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

const slideSpec: Spec<SlideRequest> = named(
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

export const templateEntrySpec = named(
  'TemplateListEntry',
  object(
    'a template_list entry {template_id, template}',
    {
      template_id: required(templateIdSpec),
      template: templateSourceSpec,
      template_name: templateSourceSpec,
    },
    (f, ctx): TemplateRef => ({
      id: f.template_id,
      source: (f.template ?? f.template_name) as string,
      path: ctx.path(),
    }),
    { oneRequired: [['template', 'template_name']], exclusive: [['template', 'template_name']] },
  ),
);

function resultFileName(raw: string, ctx: ParseContext): string | null {
  const name = sanitiseResultFileName(raw);
  if (name === null) {
    ctx.warn('resultFileName has no usable characters; "<template>-generated" is used');
  } else if (name !== raw.trim().replace(/\.pptx$/i, '')) {
    ctx.warn(`resultFileName was made safe as a file name: "${name}"`);
  }
  return name;
}

/** Every slide must name a `template_list` entry when there is a list; without one, `template_id` means nothing. */
function checkSlideTemplates(
  slides: SlideRequest[],
  templates: TemplateRef[],
  usesList: boolean,
  ctx: ParseContext,
): void {
  const ids = templates.map((t) => t.id as string);
  const expected = `one of the template_list ids (${ids.map((id) => JSON.stringify(id)).join(', ')})`;
  for (const slide of slides) {
    const path = joinPath(slide.path, 'template_id');
    if (!usesList) {
      if (slide.templateId !== null) {
        ctx.warnAt(path, 'template_id is ignored without template_list');
        slide.templateId = null;
      }
    } else if (slide.templateId === null || !ids.includes(slide.templateId)) {
      const got = slide.templateId === null ? 'nothing' : JSON.stringify(slide.templateId);
      throw new EngineError('INVALID_PAYLOAD', `expected ${expected}, got ${got}`, path);
    }
  }
}

export const presentationSpec: Spec<DeckRequest> = named(
  'Presentation',
  object(
    'a presentation object',
    {
      template: described(
        'Uploaded file name (exact) or http(s) URL; or give template_list',
        templateSourceSpec,
      ),
      template_list: described(
        'Several templates; slides pick one by template_id',
        arrayOf(templateEntrySpec, {
          minItems: 1,
          expected: 'a non-empty array of {template_id, template} entries',
        }),
      ),
      locale: described(
        'Language and region of typed values {number|date, format}: separators, month and day names (default en-US)',
        localeSpec,
      ),
      export_version: described(
        "The application version written into docProps/app.xml; without it the template's is kept",
        exportVersionSpec,
      ),
      resultFileName: described(
        'Name of the result, without .pptx; default: the template\'s name with "-generated" (report-generated.pptx)',
        transform(string(), resultFileName),
      ),
      slides: required(
        described(
          'Output slides, in order',
          arrayOf(slideSpec, { minItems: 1, expected: 'a non-empty array of slide objects' }),
        ),
      ),
      tags: described('Deck-wide {{key}} replacements', tagsSpec),
      tag_validation_mode: described(
        'strict: an unused tag is an error; lenient (default): a warning',
        modeSpec,
      ),
      shape_validation_mode: described(
        'strict: a missing shape is an error; lenient (default): a warning',
        modeSpec,
      ),
      accessibility: described(
        'report: a warning (with a code) for each picture, chart, table and group without alt text, slide ' +
          'without a title and table without a header row in the output; require: those refuse the deck; ' +
          'off (default): no check',
        accessibilitySpec,
      ),
    },
    (f, ctx): DeckRequest => {
      let templates: TemplateRef[];
      if (f.template_list !== undefined) {
        templates = f.template_list;
        const seen = new Map<string, number>();
        templates.forEach((t, i) => {
          const first = seen.get(t.id as string);
          if (first !== undefined) {
            refuse(
              ctx,
              `duplicate template_id "${t.id}" (also template_list[${first}])`,
              'template_list',
              i,
              'template_id',
            );
          }
          seen.set(t.id as string, i);
        });
      } else {
        templates = [{ id: null, source: f.template as string, path: ctx.path('template') }];
      }
      checkSlideTemplates(f.slides, templates, f.template_list !== undefined, ctx);
      return {
        templates,
        locale: f.locale ?? DEFAULT_LOCALE,
        exportVersion: f.export_version ?? null,
        resultFileName: f.resultFileName ?? null,
        slides: f.slides,
        tags: f.tags ?? [],
        tagValidation: f.tag_validation_mode ?? 'lenient',
        shapeValidation: f.shape_validation_mode ?? 'lenient',
        accessibility: f.accessibility ?? 'off',
        slideLinks: ctx.slideLinks,
      };
    },
    {
      oneRequired: [['template', 'template_list']],
      exclusive: [['template', 'template_list']],
      description: 'The presentation definition (docs/payload.md).',
    },
  ),
);
