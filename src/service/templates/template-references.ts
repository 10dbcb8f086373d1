/**
 * A stored template as the MCP tools name it (docs/mcp.md): by a reference `jsonData` would use (an id gives that
 * version, a name its latest: findStored, template-queries.ts), and stored from a public URL fetched through the
 * same guarded fetcher as `presentation.template` (docs/security.md).
 */
import { InvalidInputError, NotFoundError } from '../errors.js';
import { FetchError } from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';
import { findStored } from './template-queries.js';
import { getTemplate } from './template-queries.js';
import type { StoredTemplate, StoredTemplateDetail, TemplateOwner } from '../template-service.js';
import { uploadTemplate } from './upload-template.js';

export async function templateByReference(
  deps: ServiceDeps,
  account: TemplateOwner,
  reference: string,
): Promise<StoredTemplateDetail> {
  const record = await findStored(deps, account, reference.trim());
  if (!record) throw new NotFoundError(`template: "${reference}" is no stored template of this account`);
  return getTemplate(deps, account, record.id);
}

export async function uploadTemplateFromUrl(
  deps: ServiceDeps,
  account: TemplateOwner,
  upload: { url: string; name: string },
): Promise<{ template: StoredTemplate; created: boolean }> {
  let bytes: Uint8Array;
  try {
    bytes = await deps.fetcher.fetch(upload.url);
  } catch (error) {
    if (error instanceof FetchError) throw new InvalidInputError(`url: ${error.message}`);
    throw error;
  }
  return uploadTemplate(deps, account, { file: { name: upload.name, bytes }, name: upload.name });
}
