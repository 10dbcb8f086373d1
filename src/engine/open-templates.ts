/**
 * The templates of a request, opened (through the template cache): every template a slide uses, by its
 * template_list id (docs/payload.md "Several templates in one deck").
 */
import { EngineError } from './errors.js';
import type { PackageLimits } from './package/limits.js';
import type { DeckRequest, SlideRequest, TemplateRef } from './payload/model.js';
import type { Template } from './presentation/template.js';
import type { TemplateCache } from './presentation/template-cache.js';

/** What of a generation's input opening its templates needs (GenerateInput's fields of these names). */
export interface TemplateFiles {
  files: ReadonlyMap<string, Uint8Array>;
  limits?: Partial<PackageLimits>;
  fileHashes?: ReadonlyMap<string, string>;
}

export interface OpenTemplates {
  of(slide: SlideRequest): Template;
  /** The template of a template_list id (null: the one template), or null when no slide uses it. */
  byId(id: string | null): Template | null;
  /** Each template opened, with its entry (two entries may share one template). */
  entries: { ref: TemplateRef; template: Template }[];
}

/**
 * Opens every template a slide uses (a `template_list` entry no slide picks is never opened). Two entries of one
 * file share its template, unless one of them has a brand of its own (a theme, masters or layouts filled): then
 * each gets a separate copy, so that what changes in one entry's masters and theme stays out of the other's
 * (docs/payload.md "Brand").
 */
export function openTemplates(
  request: DeckRequest,
  input: TemplateFiles,
  cache: TemplateCache,
): OpenTemplates {
  const byId = new Map<string | null, Template>();
  const entries: { ref: TemplateRef; template: Template }[] = [];
  const holders = new Map<Template, TemplateRef>();
  const used = new Set(request.slides.map((s) => s.templateId));
  const ownBrand = (ref: TemplateRef): boolean =>
    ref.theme !== undefined || request.brand.pages.some((p) => p.templateId === ref.id);
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
    let template = openNamed(cache, bytes, input, ref);
    const holder = holders.get(template);
    if (holder && (ownBrand(ref) || ownBrand(holder))) template = template.separateCopy();
    if (!holders.has(template)) {
      holders.set(template, ref);
      entries.push({ ref, template });
    }
    byId.set(ref.id, template);
  }
  return {
    of(slide) {
      const template = byId.get(slide.templateId);
      // parsePayload has checked that every slide names a template that exists.
      if (!template) throw new EngineError('INVALID_PAYLOAD', 'no template given', slide.path);
      return template;
    },
    byId: (id) => byId.get(id) ?? null,
    entries,
  };
}

/**
 * Opens one template. A refusal about the whole file (not a zip, encrypted, too large) names the field and the
 * file it came from, which matters when several files were uploaded; one about a part names the part.
 */
function openNamed(
  cache: TemplateCache,
  bytes: Uint8Array,
  input: Omit<TemplateFiles, 'files'>,
  ref: TemplateRef,
): Template {
  try {
    return cache.open(bytes, input.limits, input.fileHashes?.get(ref.source));
  } catch (error) {
    if (!(error instanceof EngineError) || error.path !== null) throw error;
    throw new EngineError(error.code, `template file "${ref.source}": ${error.message}`, ref.path);
  }
}
