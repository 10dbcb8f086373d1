/**
 * The engine's main door: template bytes + payload + uploaded files in, a finished .pptx out.
 * Pure and synchronous: no I/O, no environment, no logging; safe to run in a worker thread.
 */
import { EngineError, type Warning } from './errors.js';
import { fillSlide, unusedDeckTags } from './fill-slide.js';
import type { PackageLimits } from './package/limits.js';
import { parsePayload } from './payload/parse-payload.js';
import type { DeckRequest, SlideRequest } from './payload/model.js';
import { DeckBuilder, type SlideSource } from './presentation/deck-builder.js';
import type { Template } from './presentation/template.js';
import { TemplateCache } from './presentation/template-cache.js';
import { child } from './xml/index.js';

export interface GenerateInput {
  /** The raw `jsonData` value (already JSON-parsed); or give `request`, the output of `parsePayload`. */
  payload?: unknown;
  request?: DeckRequest;
  /** Uploaded files by name; a template fetched from a URL is here under that URL. */
  files: ReadonlyMap<string, Uint8Array>;
  limits?: Partial<PackageLimits>;
  /** Reuse opened templates across calls (one cache per worker thread). */
  cache?: TemplateCache;
}

export interface GenerateResult {
  bytes: Uint8Array;
  slideCount: number;
  warnings: Warning[];
  /** The download name, with `.pptx`. */
  fileName: string;
}

export function generate(input: GenerateInput): GenerateResult {
  const parsed = input.request ? { request: input.request, warnings: [] } : parsePayload(input.payload);
  const { request } = parsed;
  const warnings: Warning[] = [...parsed.warnings];
  const templates = openTemplates(
    request,
    input,
    input.cache ?? new TemplateCache(Math.max(1, request.templates.length)),
  );
  const sources = request.slides.map((slide) => slideSource(templates.of(slide), slide));
  const deck = new DeckBuilder(deckTemplate(sources, request), sources, request.exportVersion);
  const deckTagsUsed = new Set<string>();
  request.slides.forEach((slide, position) => {
    const draft = deck.draft(position);
    fillSlide({ draft, slide, deck: request, warnings, deckTagsUsed });
    deck.commit(draft);
  });
  for (const key of unusedDeckTags(request, deckTagsUsed)) {
    const message = `tag "${key}" is not used anywhere in the deck`;
    if (request.tagValidation === 'strict')
      throw new EngineError('TAG_NOT_USED', message, 'presentation.tags');
    warnings.push({ path: 'presentation.tags', message });
  }
  const bytes = deck.finish();
  warnings.push(...deck.warnings);
  return {
    bytes,
    slideCount: request.slides.length,
    warnings,
    fileName: `${request.resultFileName ?? baseName(request.templates[0]?.source ?? 'presentation')}.pptx`,
  };
}

interface OpenTemplates {
  of(slide: SlideRequest): Template;
}

/** Opens every template a slide uses (a `template_list` entry no slide picks is never opened). */
function openTemplates(request: DeckRequest, input: GenerateInput, cache: TemplateCache): OpenTemplates {
  const byId = new Map<string | null, Template>();
  const used = new Set(request.slides.map((s) => s.templateId));
  for (const ref of request.templates) {
    if (ref.id !== null && !used.has(ref.id)) continue;
    const bytes = input.files.get(ref.source);
    if (!bytes) {
      const names = [...input.files.keys()].map((n) => `"${n}"`).join(', ') || 'none';
      throw new EngineError(
        'MISSING_FILE',
        `template "${ref.source}" is not among the uploaded files (uploaded: ${names})`,
        ref.path,
      );
    }
    byId.set(ref.id, cache.open(bytes, input.limits));
  }
  return {
    of(slide) {
      const template = byId.get(slide.templateId);
      // parsePayload has checked that every slide names a template that exists.
      if (!template) throw new EngineError('INVALID_PAYLOAD', 'no template given', slide.path);
      return template;
    },
  };
}

/**
 * The template the output is built on: the first slide's. Slides of other templates join it, which needs
 * the same slide size: p:sldSz is one per presentation, and scaling every shape is not faithful.
 */
function deckTemplate(sources: readonly SlideSource[], request: DeckRequest): Template {
  const first = sources[0];
  if (!first)
    throw new EngineError('INVALID_PAYLOAD', 'at least one slide is required', 'presentation.slides');
  const size = slideSize(first.template);
  const checked = new Set<Template>([first.template]);
  sources.forEach((source, position) => {
    if (checked.has(source.template)) return;
    checked.add(source.template);
    const other = slideSize(source.template);
    if (other !== size) {
      throw new EngineError(
        'INVALID_PAYLOAD',
        `this slide's template has slides of ${other} EMU, the deck's first template ${size} EMU; templates with different slide sizes cannot be combined in one deck`,
        `${request.slides[position]?.path ?? 'presentation.slides'}.template_id`,
      );
    }
  });
  return first.template;
}

function slideSize(template: Template): string {
  const sldSz = child(template.presentation.root, 'p:sldSz');
  return `${sldSz?.attrs.cx ?? '9144000'} × ${sldSz?.attrs.cy ?? '6858000'}`;
}

function slideSource(template: Template, slide: SlideRequest): SlideSource {
  if (slide.kind === 'layout') {
    if (slide.select.by !== 'index')
      throw new EngineError('INVALID_PAYLOAD', 'a layout is chosen by slide_index', `${slide.path}.slide_id`);
    const layout = template.layouts[slide.select.index];
    if (!layout) {
      throw new EngineError(
        'SLIDE_NOT_FOUND',
        `layout index ${slide.select.index} is out of range: the template has ${template.layouts.length} layouts`,
        `${slide.path}.slide_index`,
      );
    }
    return { kind: 'layout', template, layout };
  }
  const select = slide.select;
  if (select.by === 'index') {
    const found = template.slides[select.index];
    if (!found) {
      const range =
        template.slides.length === 0
          ? 'the template has no slides'
          : `the template has ${template.slides.length} slides (0–${template.slides.length - 1})`;
      throw new EngineError(
        'SLIDE_NOT_FOUND',
        `slide_index ${select.index} is out of range: ${range}`,
        `${slide.path}.slide_index`,
      );
    }
    return { kind: 'slide', template, slide: found };
  }
  const found = template.slides.find((s) => s.id === select.id);
  if (!found) {
    const ids = template.slides.map((s) => s.id).join(', ') || 'none';
    throw new EngineError(
      'SLIDE_NOT_FOUND',
      `the template has no slide with id ${select.id} (its slide ids: ${ids})`,
      `${slide.path}.slide_id`,
    );
  }
  return { kind: 'slide', template, slide: found };
}

/** `reports/Q3 deck.pptx` or `https://x/y/Q3.potx?sig=…` → `Q3 deck` / `Q3`. */
function baseName(source: string): string {
  const withoutQuery = source.replace(/[?#].*$/, '');
  const last = withoutQuery.split(/[\\/]/).pop() ?? 'presentation';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // Not percent-encoded: keep it as it is.
  }
  return name.replace(/\.(pptx|potx|ppsx|pptm|potm|ppsm)$/i, '') || 'presentation';
}
