/**
 * What a payload the schema refuses still names clearly: its templates, and the slides and shapes whose own
 * fields are right, read one by one (docs/payload.md, Validation modes). generate.ts checks them against the
 * templates, so that one 400 lists the schema's problems and the template's (an unknown shape name, a slide
 * index out of range) together, rather than the second only once the first are fixed. A part with a problem of
 * its own is left out: the schema has told it already.
 */
import { EngineError } from '../errors.js';
import { DEFAULT_LOCALE } from './locale-text.js';
import type { DeckRequest, ShapeRequest, SlideRequest, TemplateRef, ValidationMode } from './model.js';
import { joinPath, ParseContext } from './parse-context.js';
import { templateEntrySpec, templateSourceSpec } from './presentation-request.js';
import { modeSpec, slideFields } from './slide-request.js';
import { shapeSpec } from './shape-request.js';
import { isRecord, type Spec } from './schema-builders.js';

/** The outline of `json` (the parsed `jsonData`), or null when it names no template or has no slides array. */
export function payloadOutline(json: unknown): DeckRequest | null {
  if (!isRecord(json)) return null;
  const wrapped = Object.hasOwn(json, 'presentation');
  const presentation = wrapped ? json.presentation : json;
  const root = wrapped ? 'presentation' : '';
  if (!isRecord(presentation) || !Array.isArray(presentation.slides)) return null;
  const templates = outlineTemplates(presentation, root);
  if (templates === null) return null;
  const usesList = templates[0]?.id !== null;
  const ids = new Set(templates.map((t) => t.id));
  const slides: SlideRequest[] = [];
  presentation.slides.forEach((raw: unknown, i) => {
    const slide = outlineSlide(raw, joinPath(joinPath(root, 'slides'), i));
    if (slide === null) return;
    if (!usesList) slide.templateId = null;
    else if (!ids.has(slide.templateId)) return;
    slides.push(slide);
  });
  return {
    templates,
    locale: DEFAULT_LOCALE,
    exportVersion: null,
    resultFileName: null,
    slides,
    tags: [],
    tagValidation: 'lenient',
    shapeValidation: field(modeSpec, presentation, 'shape_validation_mode', root) ?? 'lenient',
    accessibility: 'off',
    slideLinks: [],
    brand: { theme: null, fonts: [], pages: [] },
  };
}

/** `template`, or the `template_list` entries that are right; null when neither names one. */
function outlineTemplates(presentation: Record<string, unknown>, root: string): TemplateRef[] | null {
  const list = presentation.template_list;
  if (Array.isArray(list)) {
    const entries = list
      .map((entry: unknown, i) =>
        valueAt(templateEntrySpec, entry, joinPath(joinPath(root, 'template_list'), i)),
      )
      .filter((entry): entry is TemplateRef => entry !== undefined);
    return entries.length > 0 ? entries : null;
  }
  const source = field(templateSourceSpec, presentation, 'template', root);
  return source === undefined ? null : [{ id: null, source, path: joinPath(root, 'template') }];
}

/** A slide that names one template slide or layout rightly, with those of its shapes that are right. */
function outlineSlide(raw: unknown, path: string): SlideRequest | null {
  if (!isRecord(raw)) return null;
  const index = field(slideFields.slide_index, raw, 'slide_index', path);
  const id = field(slideFields.slide_id, raw, 'slide_id', path);
  // Only one of the two, and given rightly: anything else is the schema's to tell.
  if ((index === undefined) === (id === undefined) || raw.all_slides != null) return null;
  const shapes: ShapeRequest[] = [];
  if (Array.isArray(raw.shapes)) {
    raw.shapes.forEach((shape: unknown, i) => {
      const parsed = valueAt(shapeSpec, shape, joinPath(joinPath(path, 'shapes'), i));
      if (parsed !== undefined) shapes.push(parsed);
    });
  }
  const shapeValidation: ValidationMode | null =
    field(slideFields.shape_validation_mode, raw, 'shape_validation_mode', path) ?? null;
  return {
    path,
    kind: field(slideFields.type, raw, 'type', path) ?? 'slide',
    templateId: field(slideFields.template_id, raw, 'template_id', path) ?? null,
    select: index !== undefined ? { by: 'index', index } : { by: 'id', id: id as number },
    shapes,
    notes: null,
    tags: [],
    tagValidation: null,
    shapeValidation,
  };
}

/** The value of `object[key]` when it is given and right; undefined otherwise. */
function field<T>(spec: Spec<T>, object: Record<string, unknown>, key: string, path: string): T | undefined {
  const raw = object[key];
  return raw === undefined || raw === null ? undefined : valueAt(spec, raw, joinPath(path, key));
}

/** `spec` applied to `raw` at `path` on its own; undefined when it has any problem (told by the schema). */
function valueAt<T>(spec: Spec<T>, raw: unknown, path: string): T | undefined {
  const ctx = new ParseContext(path);
  try {
    return ctx.run(() => spec.parse(raw, ctx));
  } catch (error) {
    if (error instanceof EngineError) return undefined;
    throw error;
  }
}
