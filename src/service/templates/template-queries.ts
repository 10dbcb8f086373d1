/** Listing, reading, downloading and deleting an account's stored templates; another account's id is a 404. */
import { NotFoundError } from '../errors.js';
import { storedContent } from '../stored-content.js';
import type { TemplateRecord } from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';
import { inspectByHash } from '../inspect-results.js';
import {
  accountTemplatesPrefix,
  TEMPLATE_ID_PATTERN,
  templateBlobKey,
  templateContentPrefix,
} from './template-blobs.js';
import {
  storedTemplate,
  type StoredTemplate,
  type StoredTemplateDetail,
  type TemplateFile,
  type TemplateOwner,
} from '../template-service.js';

export async function listTemplates(deps: ServiceDeps, account: TemplateOwner): Promise<StoredTemplate[]> {
  return (await deps.templates.listLatest(account.id)).map(storedTemplate);
}

export async function findTemplate(
  deps: Pick<ServiceDeps, 'templates'>,
  account: TemplateOwner,
  id: string,
): Promise<TemplateRecord> {
  const record = await deps.templates.get(account.id, id);
  if (!record) throw new NotFoundError(`No stored template with id ${id} on this account.`);
  return record;
}

export async function readTemplateBytes(deps: ServiceDeps, record: TemplateRecord): Promise<Uint8Array> {
  const bytes = await deps.blobs.get(templateBlobKey(record.accountId, record.sha256));
  if (!bytes) throw new Error(`the bytes of stored template ${record.id} are missing from the blob store`);
  return bytes;
}

export async function getTemplate(
  deps: ServiceDeps,
  account: TemplateOwner,
  id: string,
): Promise<StoredTemplateDetail> {
  const record = await findTemplate(deps, account, id);
  const versions = await deps.templates.versions(account.id, record.name);
  const inspect = await inspectByHash(deps, record.sha256, () => readTemplateBytes(deps, record));
  return { ...storedTemplate(record), versions: versions.map(storedTemplate), inspect };
}

export async function downloadTemplate(
  deps: ServiceDeps,
  account: TemplateOwner,
  id: string,
): Promise<TemplateFile> {
  const record = await findTemplate(deps, account, id);
  const reader = await deps.blobs.open(templateBlobKey(record.accountId, record.sha256));
  if (!reader) throw new Error(`the bytes of stored template ${record.id} are missing from the blob store`);
  return { content: storedContent(reader), fileName: record.name };
}

export async function deleteTemplate(
  deps: ServiceDeps,
  account: TemplateOwner,
  id: string,
): Promise<{ deletedVersions: number }> {
  const record = await findTemplate(deps, account, id);
  const deleted = await deps.templates.deleteName(account.id, record.name);
  for (const sha256 of new Set(deleted.map((r) => r.sha256))) {
    await removeUnusedBytes(deps, account.id, sha256);
  }
  return { deletedVersions: deleted.length };
}

/**
 * Removes an account's copy of some bytes when no record uses them any more: bytes another name of the account
 * still uses stay (docs/http-api.md, "Stored templates"). An upload of the same bytes may add its record at any
 * moment; the upload puts the bytes back if they are gone once its record is in (upload-template.ts), and this
 * looks again once they are removed and puts them back when such a record came in meanwhile, its check having
 * possibly come before the removal. Between the two, no record is left without its bytes.
 */
export async function removeUnusedBytes(
  deps: Pick<ServiceDeps, 'templates' | 'blobs'>,
  accountId: string,
  sha256: string,
): Promise<void> {
  if ((await deps.templates.findContent(accountId, sha256)) !== null) return;
  const key = templateBlobKey(accountId, sha256);
  const bytes = await deps.blobs.get(key);
  await deps.blobs.deletePrefix(templateContentPrefix(accountId, sha256));
  if (bytes !== null && (await deps.templates.findContent(accountId, sha256)) !== null) {
    await deps.blobs.put(key, bytes);
  }
}

/** The account is being deleted: its records and every byte it stored go. */
export async function forgetAccountTemplates(
  deps: Pick<ServiceDeps, 'templates' | 'blobs'>,
  accountId: string,
): Promise<void> {
  await deps.templates.forgetAccount(accountId);
  await deps.blobs.deletePrefix(accountTemplatesPrefix(accountId));
}

/** The stored template `reference` (an id or a name) names, or null. */
export async function findStored(
  deps: Pick<ServiceDeps, 'templates'>,
  account: TemplateOwner,
  reference: string,
): Promise<TemplateRecord | null> {
  const byId = TEMPLATE_ID_PATTERN.test(reference) ? await deps.templates.get(account.id, reference) : null;
  return byId ?? (await deps.templates.latest(account.id, reference));
}
