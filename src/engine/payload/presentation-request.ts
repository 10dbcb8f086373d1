/**
 * The envelope of `jsonData` (docs/payload.md "Presentation"), built into model.ts `DeckRequest`; its slides are
 * slide-request.ts's, its brand brand-request.ts's and page-request.ts's. Cross-field rules live here: one of
 * `template` / `template_list`, unique `template_id`s, every slide (and master or layout entry) naming an
 * existing `template_id` when `template_list` is used, and one entry per master or layout.
 */
import { EngineError } from '../errors.js';
import type { AccessibilityMode, DeckRequest, ExportVersion, PageRequest, TemplateRef } from './model.js';
import { object, required } from './object-builder.js';
import { sanitiseResultFileName } from './result-file-name.js';
import {
  arrayOf,
  custom,
  described,
  enumOf,
  fail,
  named,
  refuse,
  string,
  transform,
  type Spec,
} from './schema-builders.js';
import { joinPath, type ParseContext } from './parse-context.js';
import { canonicalLocale, DEFAULT_LOCALE, MAX_LOCALE_LENGTH } from './locale-text.js';
import { fontsSpec, themeSpec } from './brand-request.js';
import { pagesSpec } from './page-request.js';
import { modeSpec, slideSpec, tagsSpec, templateIdSpec } from './slide-request.js';

const accessibilitySpec = enumOf<AccessibilityMode>({ off: 'off', report: 'report', require: 'require' });

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

const LOCALE_EXPECTED = 'a BCP 47 language tag this server knows ("en-US", "de-DE", "fr-CH")';
/** `presentation.locale`: the separators and names of typed values (docs/payload.md, Numbers and dates). */
export const localeSpec = custom<string>(
  LOCALE_EXPECTED,
  {
    type: 'string',
    minLength: 2,
    maxLength: MAX_LOCALE_LENGTH,
    description: LOCALE_EXPECTED,
    examples: ['en-US', 'de-DE'],
  },
  (value, ctx) => {
    if (typeof value === 'string' && value.length > MAX_LOCALE_LENGTH)
      throw new EngineError(
        'INVALID_PAYLOAD',
        `expected a BCP 47 language tag of at most ${MAX_LOCALE_LENGTH} characters ("en-US", "de-DE"), got ${value.length} characters`,
        ctx.path(),
      );
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

export const templateEntrySpec = named(
  'TemplateListEntry',
  object(
    'a template_list entry {template_id, template}',
    {
      template_id: required(templateIdSpec),
      template: templateSourceSpec,
      template_name: templateSourceSpec,
      theme: described(
        "This template's theme changes; they win over presentation.theme slot by slot",
        themeSpec,
      ),
    },
    (f, ctx): TemplateRef => ({
      id: f.template_id,
      source: (f.template ?? f.template_name) as string,
      path: ctx.path(),
      ...(f.theme !== undefined ? { theme: f.theme } : {}),
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

/**
 * Every slide (and master or layout entry) must name a `template_list` entry when there is a list; without one,
 * `template_id` means nothing.
 */
function checkSlideTemplates(
  slides: { path: string; templateId: string | null }[],
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

/** A master or layout named twice (by index, of one template) would be filled twice: refused, naming both. */
function checkUniquePages(pages: readonly PageRequest[]): void {
  const seen = new Map<string, string>();
  for (const page of pages) {
    const key = `${page.kind}\0${page.templateId ?? ''}\0${page.index}`;
    const first = seen.get(key);
    if (first !== undefined)
      throw new EngineError(
        'INVALID_PAYLOAD',
        `${page.kind} ${page.index} is already filled by ${first}; give all its shapes in one entry`,
        joinPath(page.path, 'index'),
      );
    seen.set(key, page.path);
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
      theme: described(
        'Changes to the theme of every template of the deck: colour slots and fonts (docs/payload.md, Brand)',
        themeSpec,
      ),
      fonts: described(
        'Uploaded .ttf or .otf files to embed in the deck, grouped into families by the names inside them',
        fontsSpec,
      ),
      masters: described('Shapes to fill on slide masters', pagesSpec('master')),
      layouts: described('Shapes to fill on slide layouts', pagesSpec('layout')),
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
      const pages = [...(f.masters ?? []), ...(f.layouts ?? [])];
      checkSlideTemplates([...f.slides, ...pages], templates, f.template_list !== undefined, ctx);
      checkUniquePages(pages);
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
        brand: { theme: f.theme ?? null, fonts: f.fonts ?? [], pages },
      };
    },
    {
      oneRequired: [['template', 'template_list']],
      exclusive: [['template', 'template_list']],
      description: 'The presentation definition (docs/payload.md).',
    },
  ),
);
