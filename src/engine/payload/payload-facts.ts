/**
 * What the service needs to know of a payload before the deck is built (docs/security.md, "Nothing of one
 * request blocks the others"): how many slides to reserve, the templates to find and the URLs to fetch. Read on
 * a generation thread, where the payload is parsed; only these facts go back to the server's main thread, and
 * they stay small whatever the payload's size.
 */
import { isHttpUrl, pictureSourceUses } from './picture-source-uses.js';
import type { Warning } from '../errors.js';
import type { DeckRequest, TemplateRef } from './model.js';
import type { ParsedPayload } from './parse-payload.js';

/** Text that happens to be a URL may be a picture: fetched when possible, at most this many per request. */
export const MAX_BARE_STRING_URLS = 20;

/** A URL the payload needs fetched before generation; a template that cannot be fetched fails the request. */
export interface WantedUrl {
  url: string;
  template: boolean;
}

export interface PayloadFacts {
  /** One per `slides` entry (an `all_slides` entry counts one here; countRequestedSlides expands it). */
  slideCount: number;
  /** The template source of each `all_slides` entry, once per entry. */
  wholeTemplates: string[];
  warnings: Warning[];
  /** The templates slides actually use, in payload order (`path` names the field, `source` what it says). */
  templates: Pick<TemplateRef, 'path' | 'source'>[];
  /** Template URLs first, then picture URLs, each once. */
  urls: WantedUrl[];
}

export function payloadFacts({ request, warnings }: ParsedPayload): PayloadFacts {
  return {
    slideCount: request.slides.length,
    wholeTemplates: wholeTemplateSources(request),
    warnings,
    templates: usedTemplates(request).map(({ path, source }) => ({ path, source })),
    urls: urlsToFetch(request),
  };
}

/** The templates slides actually use (a `template_list` entry no slide picks is never opened by the engine). */
export function usedTemplates(request: DeckRequest): DeckRequest['templates'] {
  const used = new Set(request.slides.map((slide) => slide.templateId));
  return request.templates.filter((t) => t.id === null || used.has(t.id));
}

/**
 * The URLs generation needs: every template URL, every URL the payload says is a picture, and at most
 * MAX_BARE_STRING_URLS bare strings that only look like one (a shape that turns out not to be a picture keeps
 * them as text).
 */
export function urlsToFetch(request: DeckRequest): WantedUrl[] {
  const templates = new Set(
    usedTemplates(request)
      .map((t) => t.source)
      .filter(isHttpUrl),
  );
  const pictures = new Set<string>();
  const bareStrings = new Set<string>();
  for (const use of pictureSourceUses(request)) {
    if (!isHttpUrl(use.source) || templates.has(use.source)) continue;
    if (use.explicit) pictures.add(use.source);
    else if (!pictures.has(use.source)) bareStrings.add(use.source);
  }
  for (const url of pictures) bareStrings.delete(url);
  return [
    ...[...templates].map((url) => ({ url, template: true })),
    ...[...pictures, ...[...bareStrings].slice(0, MAX_BARE_STRING_URLS)].map((url) => ({
      url,
      template: false,
    })),
  ];
}

/** The source of the template of each `{"all_slides": true}` entry, in payload order. */
function wholeTemplateSources(request: DeckRequest): string[] {
  const sources = new Map(request.templates.map((t) => [t.id, t.source]));
  const whole: string[] = [];
  for (const slide of request.slides) {
    const source = slide.select.by === 'all' ? sources.get(slide.templateId) : undefined;
    if (source !== undefined) whole.push(source);
  }
  return whole;
}
