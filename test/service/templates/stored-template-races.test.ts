/**
 * A delete and an upload of the same bytes at the same moment (docs/http-api.md, "Stored templates"): whatever
 * the order of their steps, a record that is left has its bytes; and an upload the store refuses at its limit
 * leaves none. The steps are interleaved by holding one call of the real stores (SQLite, local disk) until the
 * other side has gone on, not by luck of timing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../../src/adapters/local-disk/local-disk-blob-store.js';
import { openDatabase, type SqliteDatabase } from '../../../src/adapters/sqlite/database.js';
import { SqliteTemplateStore } from '../../../src/adapters/sqlite/sqlite-template-store.js';
import { parsePlanCatalog, type Plan } from '../../../src/config/index.js';
import { inspect } from '../../../src/engine/inspect.js';
import { SILENT_LOGGER, type BlobStore, type TemplateStore } from '../../../src/service/ports/index.js';
import type { ServiceDeps } from '../../../src/service/service-deps.js';
import { InspectResults, sha256Of } from '../../../src/service/inspect-results.js';
import { templateBlobKey } from '../../../src/service/templates/template-blobs.js';
import { deleteTemplate } from '../../../src/service/templates/template-queries.js';
import { uploadTemplate } from '../../../src/service/templates/upload-template.js';
import { harbourTemplate } from '../../support/decks/harbour-template.js';
import { tempDir } from '../../support/servers/temp-dir.js';
import { TEST_PLANS, templateBytes } from '../service-harness.js';

const account = { id: 'acc_races', plan: 'Free' };

/** `target` as it is, except that the first call of `method` waits at its start until `release()`. */
function holdFirst<T extends object>(target: T, method: keyof T & string) {
  let reached!: () => void;
  let release!: () => void;
  const atHold = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let armed = true;
  const held = new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property);
      if (typeof value !== 'function') return value;
      const call = value as (...args: unknown[]) => unknown;
      if (property !== method) return call.bind(object);
      return async (...args: unknown[]) => {
        if (armed) {
          armed = false;
          reached();
          await released;
        }
        return call.apply(object, args);
      };
    },
  });
  return { held, atHold, release };
}

describe('stored templates racing: a delete and an upload of the same bytes, two uploads at the limit', () => {
  let dir: ReturnType<typeof tempDir>;
  let db: SqliteDatabase;
  let templates: TemplateStore;
  let blobs: BlobStore;
  const bytes = templateBytes();
  const key = templateBlobKey(account.id, sha256Of(bytes));

  const depsWith = (
    stores: { templates?: TemplateStore; blobs?: BlobStore },
    plans: Plan[] = TEST_PLANS,
  ): ServiceDeps =>
    ({
      templates: stores.templates ?? templates,
      blobs: stores.blobs ?? blobs,
      clock: { now: () => new Date('2026-11-21T10:00:00.000Z') },
      logger: SILENT_LOGGER,
      settings: {
        plans: parsePlanCatalog({ plans }, 'test'),
        limits: { maxUploadBytes: 50 * 1024 * 1024 },
      },
      // New bytes are opened by the engine itself, here in this thread instead of the pool's.
      pool: { inspect: async (template: Uint8Array) => inspect(template) },
      inspectResults: new InspectResults(1024 * 1024),
    }) as unknown as ServiceDeps;

  /** The account holds "old.pptx" with these bytes; the upload stores them again as "new.pptx". */
  beforeEach(async () => {
    dir = tempDir('deckforge-races-');
    db = openDatabase(`${dir.path}/deckforge.sqlite`);
    templates = new SqliteTemplateStore(db);
    blobs = new LocalDiskBlobStore(dir.path, null);
    // As a first upload stores them (upload-template.ts), without parsing them again here.
    await blobs.put(key, bytes);
    await templates.addVersion({
      id: 'tpl_00000000000000000000000000000001',
      accountId: account.id,
      name: 'old.pptx',
      sha256: sha256Of(bytes),
      bytes: bytes.byteLength,
      slides: 1,
      createdAt: '2026-11-21T10:00:00.000Z',
    });
  });
  afterEach(() => {
    db.close();
    dir.remove();
  });

  it('the delete runs whole between the upload finding the bytes and adding its record: the bytes are there', async () => {
    const upload = holdFirst(templates, 'addVersion');
    const uploading = uploadTemplate(depsWith({ templates: upload.held }), account, {
      name: 'new.pptx',
      file: { name: 'new.pptx', bytes },
    });
    await upload.atHold;
    const old = (await templates.latest(account.id, 'old.pptx'))!;
    await deleteTemplate(depsWith({}), account, old.id);
    expect(await blobs.get(key)).toBeNull();
    upload.release();
    const { template } = await uploading;
    expect(await templates.listLatest(account.id)).toMatchObject([{ id: template.id }]);
    expect(await blobs.get(key)).toEqual(bytes);
  });

  it('the upload runs whole between the delete finding no record and removing the bytes: the bytes are there', async () => {
    const upload = holdFirst(templates, 'addVersion');
    const removal = holdFirst(blobs, 'deletePrefix');
    const uploading = uploadTemplate(depsWith({ templates: upload.held }), account, {
      name: 'new.pptx',
      file: { name: 'new.pptx', bytes },
    });
    await upload.atHold;
    const old = (await templates.latest(account.id, 'old.pptx'))!;
    const deleting = deleteTemplate(depsWith({ blobs: removal.held }), account, old.id);
    await removal.atHold;
    upload.release();
    const { template } = await uploading;
    removal.release();
    expect(await deleting).toEqual({ deletedVersions: 1 });
    expect(await templates.listLatest(account.id)).toMatchObject([{ id: template.id }]);
    expect(await blobs.get(key)).toEqual(bytes);
  });

  it('an upload the store refuses (another filled the last place after its check) leaves no bytes behind', async () => {
    const plans = TEST_PLANS.map((plan) => ({ ...plan, storedTemplates: 2 }));
    const other = harbourTemplate();
    const upload = holdFirst(templates, 'addVersion');
    const uploading = uploadTemplate(depsWith({ templates: upload.held }, plans), account, {
      name: 'new.pptx',
      file: { name: 'new.pptx', bytes: other },
    });
    await upload.atHold;
    const otherKey = templateBlobKey(account.id, sha256Of(other));
    expect(await blobs.get(otherKey)).toEqual(other);
    await uploadTemplate(depsWith({}, plans), account, { file: { name: 'copy.pptx', bytes } });
    upload.release();
    await expect(uploading).rejects.toThrow('plan keeps at most 2 stored templates and the account has 2');
    expect(await blobs.get(otherKey)).toBeNull();
    expect(await blobs.get(key)).toEqual(bytes);
  });
});
