/**
 * Inspecting a template: its slides, layouts and shapes (docs/http-api.md, "Inspecting a template"); the same
 * bytes again get the result kept by content hash (templates/inspect-results.ts).
 */
import type { Account, UploadedFile } from '../deckforge-service.js';
import { InvalidInputError } from '../errors.js';
import { FetchError, type TemplateRecord } from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';
import { inspectByHash, sha256Of } from '../templates/inspect-results.js';
import { findStored } from '../templates/stored-template-resolution.js';
import { readTemplateBytes } from '../templates/template-queries.js';

export async function inspectTemplate(
  deps: ServiceDeps,
  account: Account,
  source: { files: UploadedFile[]; templateUrl?: string },
): Promise<unknown> {
  const template = await templateToInspect(deps, account, source);
  if ('stored' in template) {
    const { stored } = template;
    return inspectByHash(deps, stored.sha256, () => readTemplateBytes(deps, stored));
  }
  return inspectByHash(deps, sha256Of(template.bytes), () => template.bytes);
}

async function templateToInspect(
  deps: ServiceDeps,
  account: Account,
  source: { files: UploadedFile[]; templateUrl?: string },
): Promise<{ stored: TemplateRecord } | { bytes: Uint8Array }> {
  const url = source.templateUrl?.trim();
  if (url && source.files.length === 0 && !/^https?:\/\//i.test(url)) {
    // Not a URL: a stored template's name or id (docs/http-api.md, "Stored templates").
    const stored = await findStored(deps, account, url);
    if (!stored)
      throw new InvalidInputError(`template: "${url}" is no URL and no stored template of this account`);
    return { stored };
  }
  if (url) {
    try {
      return { bytes: await deps.fetcher.fetch(url) };
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
  if (template.bytes.byteLength > deps.settings.limits.maxUploadBytes) {
    throw new InvalidInputError('the template is larger than the upload limit');
  }
  return { bytes: template.bytes };
}
