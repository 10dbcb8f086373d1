/**
 * What the transports see of stored templates (docs/http-api.md, "Stored templates"). The account, upload and
 * download types are the parts of deckforge-service.ts's Account, UploadedFile and Download used here, written
 * out because that file imports this one.
 */
import type { Readable } from 'node:stream';
import type { InspectResult } from '../engine/index.js';
import type { TemplateRecord } from './ports/index.js';

/** The account a call acts for. */
export interface TemplateOwner {
  id: string;
  plan: string;
}

/** One version of a stored template. */
export type StoredTemplate = Omit<TemplateRecord, 'accountId'>;

export interface StoredTemplateDetail extends StoredTemplate {
  /** Every version of its name, newest first (itself among them). */
  versions: StoredTemplate[];
  /** What `POST /v1.0/template/inspect` gives for this version. */
  inspect: InspectResult;
}

export interface TemplateUpload {
  file: { name: string; bytes: Uint8Array };
  /** The name to store it under; the file's name when absent. */
  name?: string;
}

export interface TemplateFile {
  fileName: string;
  content: { byteLength: number; stream(): Readable };
}

export interface TemplateService {
  /**
   * Stores a new version of the name, after the checks every uploaded template gets. The same bytes as the
   * name's latest version store nothing and give that version back (`created` false).
   */
  upload(
    account: TemplateOwner,
    upload: TemplateUpload,
  ): Promise<{ template: StoredTemplate; created: boolean }>;
  /** The latest version of each name, by name. */
  list(account: TemplateOwner): Promise<StoredTemplate[]>;
  /** The version with this id, its name's versions and its inspect result; NotFoundError when not the account's. */
  get(account: TemplateOwner, id: string): Promise<StoredTemplateDetail>;
  /** `get` for a reference as `jsonData` writes one: an id gives that version, a name its latest. */
  find(account: TemplateOwner, reference: string): Promise<StoredTemplateDetail>;
  /** `upload` of a template fetched from a public URL, through the URL guard `presentation.template` goes through. */
  uploadFromUrl(
    account: TemplateOwner,
    upload: { url: string; name: string },
  ): Promise<{ template: StoredTemplate; created: boolean }>;
  /** The bytes of the version with this id. */
  download(account: TemplateOwner, id: string): Promise<TemplateFile>;
  /** Deletes the name of the version with this id, every version of it. */
  delete(account: TemplateOwner, id: string): Promise<{ deletedVersions: number }>;
}

export function storedTemplate(record: TemplateRecord): StoredTemplate {
  const { accountId: _accountId, ...view } = record;
  return view;
}
