/**
 * Storing a template: the size limit of an upload and the plan's limits, then the engine opens it once (zip
 * bombs, encryption, a package that is no presentation: the errors an uploaded template gets) and counts its
 * slides (an inspect kept by content hash: inspect-results.ts); the bytes go to the blob store unless the account
 * already has them, and are there again once the record is in (a delete racing the upload: template-queries.ts).
 */
import { refuseEmptyUploads } from '../empty-upload.js';
import { InvalidInputError } from '../errors.js';
import type { ServiceDeps } from '../service-deps.js';
import { inspectByHash, sha256Of } from '../inspect-results.js';
import { newTemplateId, templateBlobKey } from './template-blobs.js';
import { asLimitRefusal, checkRoomForTemplate, templateLimitsOf } from './template-limits.js';
import { removeUnusedBytes } from './template-queries.js';
import {
  storedTemplate,
  type StoredTemplate,
  type TemplateOwner,
  type TemplateUpload,
} from '../template-service.js';

const MAX_NAME_LENGTH = 255;

export async function uploadTemplate(
  deps: ServiceDeps,
  account: TemplateOwner,
  upload: TemplateUpload,
): Promise<{ template: StoredTemplate; created: boolean }> {
  const name = templateName(upload);
  const { bytes } = upload.file;
  refuseEmptyUploads('file', [upload.file]);
  if (bytes.byteLength > deps.settings.limits.maxUploadBytes) {
    throw new InvalidInputError(
      'file: the template is larger than the upload limit (DECKFORGE_MAX_UPLOAD_MB)',
    );
  }
  const sha256 = sha256Of(bytes);
  const latest = await deps.templates.latest(account.id, name);
  if (latest?.sha256 === sha256) return { template: storedTemplate(latest), created: false };

  const sameContent = await deps.templates.findContent(account.id, sha256);
  // The plan's limits first: a refusal costs no parse.
  await checkRoomForTemplate(deps, account, {
    newName: latest === null,
    newContent: sameContent === null,
    bytes: bytes.byteLength,
  });
  const slides = sameContent?.slides ?? (await inspectByHash(deps, sha256, () => bytes)).slides.length;
  const key = templateBlobKey(account.id, sha256);
  if (sameContent === null) await deps.blobs.put(key, bytes);
  const record = await deps.templates
    .addVersion(
      {
        id: newTemplateId(),
        accountId: account.id,
        name,
        sha256,
        bytes: bytes.byteLength,
        slides,
        createdAt: deps.clock.now().toISOString(),
      },
      templateLimitsOf(deps, account),
    )
    .catch(async (error: unknown) => {
      // Refused by the store (uploads at once filled the room after the check above): bytes put for this
      // record alone go again.
      if (sameContent === null) await removeUnusedBytes(deps, account.id, sha256);
      throw asLimitRefusal(deps, account, error, bytes.byteLength);
    });
  // A delete of the last other record with these bytes may have removed them after findContent above: with the
  // record in, a delete from now on keeps them (docs/http-api.md, "Stored templates"), so they are put back here
  // if they went.
  if ((await deps.blobs.open(key)) === null) await deps.blobs.put(key, bytes);
  deps.logger.info(
    { accountId: account.id, templateId: record.id, version: record.version },
    'template stored',
  );
  return { template: storedTemplate(record), created: true };
}

function templateName(upload: TemplateUpload): string {
  const name = (upload.name ?? upload.file.name).trim();
  if (name === '')
    throw new InvalidInputError('name: give the template a name (or upload a file that has one)');
  if (name.length > MAX_NAME_LENGTH) {
    throw new InvalidInputError(`name: at most ${MAX_NAME_LENGTH} characters`);
  }
  // eslint-disable-next-line no-control-regex -- control characters are what is refused here
  if (/[\u0000-\u001f\u007f]/.test(name))
    throw new InvalidInputError('name: control characters are not allowed');
  if (/^https?:\/\//i.test(name)) {
    throw new InvalidInputError('name: a name that is a URL could not be told apart from a template URL');
  }
  return name;
}
