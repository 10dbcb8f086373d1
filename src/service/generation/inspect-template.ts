/** Inspecting a template: its slides, layouts and shapes (docs/http-api.md, "Inspecting a template"). */
import type { UploadedFile } from '../deckforge-service.js';
import { GenerationTimeLimitError, InvalidInputError } from '../errors.js';
import { FetchError, GenerationTimeoutError } from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';

export async function inspectTemplate(
  deps: ServiceDeps,
  source: { files: UploadedFile[]; templateUrl?: string },
): Promise<unknown> {
  const bytes = await templateToInspect(deps, source);
  try {
    return await deps.pool.inspect(bytes);
  } catch (error) {
    if (error instanceof GenerationTimeoutError) throw new GenerationTimeLimitError(error.budgetMs);
    throw error;
  }
}

async function templateToInspect(
  deps: ServiceDeps,
  source: { files: UploadedFile[]; templateUrl?: string },
): Promise<Uint8Array> {
  const url = source.templateUrl?.trim();
  if (url) {
    try {
      return await deps.fetcher.fetch(url);
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
  return template.bytes;
}
