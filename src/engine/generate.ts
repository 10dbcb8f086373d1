/**
 * The engine's main door: template bytes + payload + uploaded files in, a finished .pptx out.
 * Pure and synchronous: no I/O, no environment, no logging; safe to run in a worker thread. The .pptx either
 * comes back as bytes or streams, as it is built, into a sink the caller gives (and writes out): then memory
 * holds the templates and one slide at a time, not the deck (docs/large-decks.md).
 */
import { AccessibilityReport } from './accessibility/accessibility-report.js';
import { EngineError, type Warning } from './errors.js';
import { makeSlides, type SlideRun } from './slides/continued-tables.js';
import { unusedDeckTags } from './slides/fill-slide.js';
import type { PackageLimits } from './package/limits.js';
import { ChunkCollector, type ByteSink } from './package/zip-writer.js';
import { PictureImages } from './pictures/picture-sources.js';
import { DEFAULT_IMAGE_LIMITS, type ImageLimits, type ImageOutcome } from './pictures/prepared-image.js';
import { parsePayload, type ParsedPayload } from './payload/parse-payload.js';
import { payloadOutline } from './payload/payload-outline.js';
import { MAX_LISTED_ERRORS, oneError, problemsOf } from './error-list.js';
import type { DeckRequest, PageRequest, SlideRequest } from './payload/model.js';
import { DeckBuilder } from './presentation/deck-builder.js';
import type { SlideSource } from './presentation/slide-draft.js';
import type { Template } from './presentation/template.js';
import { TemplateCache } from './presentation/template-cache.js';
import { slideCountText } from './slides/slide-count-text.js';
import { checkExpandedSlideCount, checkSlideLinks, expandWholeTemplates } from './slides/slide-entries.js';
import { checkedPages, checkedSources, type PageSource } from './slides/request-checks.js';
import { unusedFileWarnings } from './slides/uploaded-files.js';
import { prepareBrand } from './slides/deck-brand.js';
import { unusedFontWarnings } from './presentation/embedded-font-use.js';
import { readEmbeddedFonts, type EmbeddedFamily } from './fonts/embedded-fonts.js';
import { openTemplates, type OpenTemplates } from './open-templates.js';
import { child } from './xml/index.js';
import { append } from './arrays.js';

export interface GenerateInput {
  /**
   * The raw `jsonData` value (already JSON-parsed); or give `parsed`, what parsePayload or parsePayloadText made
   * of it (its warnings are reported with the deck's). `generate` takes the slides out of `parsed.request` and
   * lets go of each once it is written, so that a deck of 20 000 slides does not end holding every slide's
   * request: `parsed.request.slides` is empty afterwards.
   */
  payload?: unknown;
  parsed?: ParsedPayload;
  /** Uploaded files by name; a template or picture fetched from a URL is here under that URL. */
  files: ReadonlyMap<string, Uint8Array>;
  /**
   * Pictures the image preparation step converted (or refused), by source as the payload writes it. A
   * source not here is looked up in `files` (or decoded from its data: URI) and stored as it is when it is a
   * PNG, JPEG or GIF.
   */
  images?: ReadonlyMap<string, ImageOutcome>;
  limits?: Partial<PackageLimits>;
  imageLimits?: Partial<ImageLimits>;
  /** Reuse opened templates across calls (one cache per worker thread); trimmed to its bound when done. */
  cache?: TemplateCache;
  /**
   * SHA-256 (hex) of files in `files` whose hash the caller already knows (a stored template's), by name: the
   * cache then need not hash them. Trusted, not checked.
   */
  fileHashes?: ReadonlyMap<string, string>;
  /**
   * Most output slides the deck may have, continuation slides of long tables included (a request over it is
   * refused with LIMIT_EXCEEDED before the extra slides are built). Default: no limit.
   */
  maxSlides?: number;
  /**
   * Where the .pptx goes, chunk after chunk, while it is built; without it `generate` returns the bytes. When
   * `generate` throws, what the sink received is not a deck: the caller discards it.
   */
  output?: ByteSink;
  /**
   * Told after each slide entry of the payload is written: how many are done of how many (continuation slides
   * of a long table belong to their entry). The caller decides what to do with it; the engine only calls.
   */
  onProgress?: (slidesDone: number, slidesTotal: number) => void;
}

export interface GenerateSummary {
  /** Output slides, the copies long tables continued on included (what the usage allowance counts). */
  slideCount: number;
  warnings: Warning[];
  /** The download name, with `.pptx`. */
  fileName: string;
  /** Size of the .pptx in bytes. */
  byteLength: number;
}

export interface GenerateResult extends GenerateSummary {
  bytes: Uint8Array;
}

export function generate(input: GenerateInput & { output: ByteSink }): GenerateSummary;
export function generate(input: GenerateInput): GenerateResult;
export function generate(input: GenerateInput): GenerateSummary | GenerateResult {
  const collector = input.output ? null : new ChunkCollector();
  let summary: GenerateSummary;
  try {
    summary = build(input, input.output ?? (collector as ChunkCollector));
  } finally {
    input.cache?.trim(); // the templates' memoised parses grew while the deck was built
  }
  return collector ? { ...summary, bytes: collector.bytes() } : summary;
}

function build(input: GenerateInput, sink: ByteSink): GenerateSummary {
  const parsed = input.parsed ?? parsePayload(input.payload);
  const { request } = parsed;
  const warnings: Warning[] = [...parsed.warnings];
  const templates = openTemplates(
    request,
    input,
    input.cache ?? new TemplateCache(Math.max(1, request.templates.length)),
  );
  request.slides = expandWholeTemplates(request.slides, (slide) => templates.of(slide), warnings);
  checkExpandedSlideCount(request.slides, input.maxSlides ?? Infinity);
  checkSlideLinks(request.slideLinks, request.slides.length);
  const { sources, pages, fonts } = checkedRequest(request, templates, input, warnings);
  const fontWarnings = unusedFontWarnings(
    fonts,
    request,
    templates.entries.map((e) => e.ref.theme),
    templates.entries.map((e) => e.template),
  );
  const pictures = new PictureImages(input.files, input.images, {
    ...DEFAULT_IMAGE_LIMITS,
    ...input.imageLimits,
  });
  const deckTagsUsed = new Set<string>();
  const brand = prepareBrand(templates.entries, pages, fonts, { request, warnings, deckTagsUsed, pictures });
  const deck = new DeckBuilder(
    deckTemplate(sources, request.slides),
    sources,
    request.exportVersion,
    sink,
    brand.brand,
  );
  // Taken, not copied: each slide's request is let go once its slides are written (see GenerateInput.parsed).
  const slides: (SlideRequest | undefined)[] = request.slides.splice(0);
  const run: SlideRun = {
    deck,
    request,
    warnings,
    deckTagsUsed,
    pictures,
    maxSlides: input.maxSlides ?? Infinity,
    requestedSlides: slides.length,
    slideCount: 0,
    accessibility: new AccessibilityReport(request.accessibility),
  };
  for (let position = 0; position < slides.length; position++) {
    const slide = slides[position];
    slides[position] = undefined;
    if (slide) makeSlides(run, slide, position);
    input.onProgress?.(position + 1, slides.length);
  }
  for (const key of unusedDeckTags(request, run.deckTagsUsed)) {
    const message = `tag "${key}" is not used anywhere in the deck`;
    if (request.tagValidation === 'strict')
      throw new EngineError('TAG_NOT_USED', message, 'presentation.tags');
    warnings.push({ path: 'presentation.tags', message, code: 'TAG_NOT_USED' });
  }
  // Before the package is finished: a refused deck ends here, and the caller discards what the sink received.
  const accessibility = run.accessibility.finish();
  const byteLength = deck.finish();
  for (const more of [deck.warnings, brand.unfilled(), fontWarnings, accessibility]) append(warnings, more);
  const used = new Set([
    ...request.templates.map((t) => t.source),
    ...run.pictures.usedSources(),
    ...request.brand.fonts.map((f) => f.file),
  ]);
  append(warnings, unusedFileWarnings(input.files, used));
  return {
    byteLength,
    slideCount: run.slideCount,
    warnings,
    fileName: `${request.resultFileName ?? defaultName(request.templates[0]?.source ?? 'presentation')}.pptx`,
  };
}

/**
 * What the opened templates and the uploaded files say about the request, every problem in one error: the slides'
 * (request-checks.ts), the fonts' (embedded-fonts.ts) and the masters' and layouts' entries'.
 */
function checkedRequest(
  request: DeckRequest,
  templates: OpenTemplates,
  input: Pick<GenerateInput, 'files' | 'images'>,
  warnings: Warning[],
): { sources: SlideSource[]; pages: PageSource[]; fonts: EmbeddedFamily[] } {
  const problems: EngineError[] = [];
  const attempt = <T>(check: () => T, otherwise: T): T => {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      append(problems, problemsOf(error));
      return otherwise;
    }
  };
  const sources = attempt(
    () =>
      shared(
        checkedSources(request, request.slides, (slide) => slideSource(templates.of(slide), slide), input),
      ),
    [],
  );
  const fonts = attempt(() => readEmbeddedFonts(request.brand.fonts, input.files, warnings), []);
  const pages = attempt(
    () => checkedPages(request, (page) => pageTemplate(templates, page, warnings), input),
    [],
  );
  const error = oneError(problems.slice(0, MAX_LISTED_ERRORS));
  if (error) throw error;
  return { sources, pages, fonts };
}

/** The template a master or layout entry fills; null, with a warning, when no slide comes from it. */
function pageTemplate(templates: OpenTemplates, page: PageRequest, warnings: Warning[]): Template | null {
  const template = templates.byId(page.templateId);
  if (!template)
    warnings.push({
      path: `${page.path}.template_id`,
      message: `no slide of the deck comes from template "${page.templateId}", so its ${page.kind}s are not in the deck: nothing was filled`,
    });
  return template;
}

/**
 * Throws everything wrong with a payload that can be told without building it, when the schema refuses it: the
 * schema's problems and, for the slides and shapes it still names clearly (payload-outline.ts), the template's
 * (slides that do not exist, shapes a strict slide does not have, content of the wrong kind, pictures not
 * uploaded), in one error. Returns when the schema accepts the payload: `generate` tells the rest. Templates
 * not among `files` (a URL not fetched yet) are not opened: the schema's problems are told alone.
 */
export function checkPayload(
  input: Pick<GenerateInput, 'files' | 'limits' | 'fileHashes' | 'cache'> & { payload: unknown },
): void {
  let refusal: EngineError;
  try {
    parsePayload(input.payload);
    return;
  } catch (error) {
    if (!(error instanceof EngineError) || error.code !== 'INVALID_PAYLOAD') throw error;
    refusal = error;
  }
  const outline = payloadOutline(input.payload);
  if (outline === null || outline.templates.some((t) => !input.files.has(t.source))) throw refusal;
  const problems = [...problemsOf(refusal)];
  try {
    const templates = openTemplates(
      outline,
      input,
      input.cache ?? new TemplateCache(outline.templates.length),
    );
    checkedSources(outline, outline.slides, (slide) => slideSource(templates.of(slide), slide), input);
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    append(problems, problemsOf(error));
  }
  throw oneError(problems.slice(0, MAX_LISTED_ERRORS)) ?? refusal;
}

/**
 * The template the output is built on: the first slide's. Slides of other templates join it, which needs
 * the same slide size: p:sldSz is one per presentation, and scaling every shape is not faithful.
 */
function deckTemplate(sources: readonly SlideSource[], slides: readonly SlideRequest[]): Template {
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
        `${slides[position]?.path ?? 'presentation.slides'}.template_id`,
      );
    }
  });
  return first.template;
}

function slideSize(template: Template): string {
  const sldSz = child(template.presentation.root, 'p:sldSz');
  return `${sldSz?.attrs.cx ?? '9144000'} × ${sldSz?.attrs.cy ?? '6858000'}`;
}

/** One object per template slide or layout used, however many copies: a deck may have 20 000 slides. */
function shared(sources: SlideSource[]): SlideSource[] {
  const first = new Map<object, SlideSource>();
  return sources.map((source) => {
    const key = source.kind === 'slide' ? source.slide : source.layout;
    const known = first.get(key);
    if (known) return known;
    first.set(key, source);
    return source;
  });
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
          : `the template has ${slideCountText(template.slides.length)} (0–${template.slides.length - 1})`;
      throw new EngineError(
        'SLIDE_NOT_FOUND',
        `slide_index ${select.index} is out of range: ${range}`,
        `${slide.path}.slide_index`,
      );
    }
    return { kind: 'slide', template, slide: found };
  }
  if (select.by === 'all') throw new Error('all_slides entries are expanded before their sources are found');
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
/**
 * Without resultFileName: the template's name with "-generated", so that saving the download beside the template
 * (`curl -OJ`, the CLI without -o) never meets the template itself.
 */
function defaultName(source: string): string {
  return `${baseName(source)}-generated`;
}

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
