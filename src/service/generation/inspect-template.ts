/**
 * Inspecting a template: its slides, layouts and shapes (docs/http-api.md, "Inspecting a template"); the same
 * bytes again get the result kept by content hash (templates/inspect-results.ts).
 */
import { refuseEmptyUploads } from '../empty-upload.js';
import type { Account, TemplateSource, UploadedFile } from '../deckforge-service.js';
import { InvalidInputError } from '../errors.js';
import { FetchError, type TemplateRecord } from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';
import { inspectByHash, sha256Of } from '../inspect-results.js';
import { findStored, readTemplateBytes } from '../templates/template-queries.js';

export async function inspectTemplate(
  deps: ServiceDeps,
  account: Account,
  source: TemplateSource,
): Promise<unknown> {
  const template = await templateToInspect(deps, account, source);
  if ('stored' in template) {
    const { stored } = template;
    return inspectByHash(deps, stored.sha256, () => readTemplateBytes(deps, stored));
  }
  return inspectByHash(deps, sha256Of(template.bytes), () => template.bytes);
}

/** The template a source names, with a name to show in messages (its file name, its URL or its stored name). */
export async function templateOf(
  deps: ServiceDeps,
  account: Account,
  source: TemplateSource,
): Promise<UploadedFile> {
  const template = await templateToInspect(deps, account, source);
  if ('stored' in template)
    return { name: template.name, bytes: await readTemplateBytes(deps, template.stored) };
  return template;
}

async function templateToInspect(
  deps: ServiceDeps,
  account: Account,
  source: TemplateSource,
): Promise<{ name: string; stored: TemplateRecord } | UploadedFile> {
  const url = source.templateUrl?.trim();
  if (url && source.files.length === 0 && !/^https?:\/\//i.test(url)) {
    // Not a URL: a stored template's name or id (docs/http-api.md, "Stored templates").
    const stored = await findStored(deps, account, url);
    if (!stored)
      throw new InvalidInputError(`template: "${url}" is no URL and no stored template of this account`);
    return { name: url, stored };
  }
  if (url) {
    try {
      return { name: url, bytes: await deps.fetcher.fetch(url) };
    } catch (error) {
      if (error instanceof FetchError) throw new InvalidInputError(`template ${error.message}`);
      throw error;
    }
  }
  if (source.files.length === 0) {
    throw new InvalidInputError('send the template as a "files" part, or give its URL in "template"');
  }
  const template = source.files.find((f) => /\.(pptx|potx|pptm)$/i.test(f.name)) ?? source.files[0];
  if (!template) throw new InvalidInputError('no template file was sent');
  refuseEmptyUploads('files', [template]);
  if (template.bytes.byteLength > deps.settings.limits.maxUploadBytes) {
    throw new InvalidInputError('the template is larger than the upload limit');
  }
  return template;
}
