/** Inspecting a template: its slides, layouts and shapes (docs/http-api.md, "Inspecting a template"). */
import type { Account, TemplateSource, UploadedFile } from '../deckforge-service.js';
import { GenerationTimeLimitError, InvalidInputError } from '../errors.js';
import { FetchError, GenerationTimeoutError } from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';
import { findStored } from '../templates/stored-template-resolution.js';
import { readTemplateBytes } from '../templates/template-queries.js';

export async function inspectTemplate(
  deps: ServiceDeps,
  account: Account,
  source: TemplateSource,
): Promise<unknown> {
  const template = await templateOf(deps, account, source);
  try {
    return await deps.pool.inspect(template.bytes);
  } catch (error) {
    if (error instanceof GenerationTimeoutError) throw new GenerationTimeLimitError(error.budgetMs);
    throw error;
  }
}

/** The template a source names, with a name to show in messages (its file name, its URL or its stored name). */
export async function templateOf(
  deps: ServiceDeps,
  account: Account,
  source: TemplateSource,
): Promise<UploadedFile> {
  const url = source.templateUrl?.trim();
  if (url && source.files.length === 0 && !/^https?:\/\//i.test(url)) {
    // Not a URL: a stored template's name or id (docs/http-api.md, "Stored templates").
    const stored = await findStored(deps, account, url);
    if (!stored)
      throw new InvalidInputError(`template: "${url}" is no URL and no stored template of this account`);
    return { name: url, bytes: await readTemplateBytes(deps, stored) };
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
  if (template.bytes.byteLength > deps.settings.limits.maxUploadBytes) {
    throw new InvalidInputError('the template is larger than the upload limit');
  }
  return template;
}
