/**
 * Stored templates' records (docs/http-api.md, "Stored templates"): one row per version of a named template of
 * an account. The bytes are on the blob store, once per account and content (`sha256`): versions and names with
 * the same bytes share them.
 */
export interface TemplateRecord {
  /** Random and unguessable; names this exact version. */
  id: string;
  accountId: string;
  name: string;
  /** 1 for the first upload of `name`, then one more for each upload of other bytes under it. */
  version: number;
  /** Lower-case hex of the bytes' SHA-256. */
  sha256: string;
  bytes: number;
  slides: number;
  /** ISO 8601. */
  createdAt: string;
}

/** What an account stores: named templates (any version counts once) and bytes (each distinct content once). */
export interface TemplateHoldings {
  templates: number;
  bytes: number;
}

/** A plan's stored-template limits: named templates and bytes (each distinct content once). */
export interface TemplateLimits {
  templates: number;
  bytes: number;
}

/** What an addition would add to the holdings: a name the account does not have yet, bytes it does not have yet. */
export interface TemplateAddition {
  newName: boolean;
  newContent: boolean;
  bytes: number;
}

/** Which limit an addition would take the account past, given what it holds; null when it fits. */
export function limitExceeded(
  held: TemplateHoldings,
  addition: TemplateAddition,
  limits: TemplateLimits,
): keyof TemplateLimits | null {
  if (addition.newName && held.templates + 1 > limits.templates) return 'templates';
  if (addition.newContent && held.bytes + addition.bytes > limits.bytes) return 'bytes';
  return null;
}

/** TemplateStore.addVersion refused a record: storing it would take the account past `limit`. */
export class TemplateLimitError extends Error {
  override readonly name = 'TemplateLimitError';
  constructor(
    readonly limit: keyof TemplateLimits,
    /** What the account held when the record was refused. */
    readonly held: TemplateHoldings,
  ) {
    super(`storing the template would take the account past its ${limit} limit`);
  }
}

export interface TemplateStore {
  /**
   * Adds the next version of `record.name` for its account (1 when the name is new) and returns it. Two callers
   * adding to one name at once get two versions, never the same number. With `limits`, the holdings are counted
   * and the record refused (TemplateLimitError) in the same atomic step as the insert, so callers adding at once
   * to one account never take it past them together.
   */
  addVersion(record: Omit<TemplateRecord, 'version'>, limits?: TemplateLimits): Promise<TemplateRecord>;
  /** The version with this id, when it is the account's; null otherwise. */
  get(accountId: string, id: string): Promise<TemplateRecord | null>;
  /** The latest version of `name` (names compare exactly); null when the account has none. */
  latest(accountId: string, name: string): Promise<TemplateRecord | null>;
  /** Every version of `name`, newest first. */
  versions(accountId: string, name: string): Promise<TemplateRecord[]>;
  /** The latest version of each of the account's names, by name. */
  listLatest(accountId: string): Promise<TemplateRecord[]>;
  holdings(accountId: string): Promise<TemplateHoldings>;
  /** A record of the account with these bytes (any name, any version); null when none has them. */
  findContent(accountId: string, sha256: string): Promise<TemplateRecord | null>;
  /** Deletes every version of `name`; returns what was deleted. */
  deleteName(accountId: string, name: string): Promise<TemplateRecord[]>;
  /** Deletes all of the account's records (the account is being deleted); returns what was deleted. */
  forgetAccount(accountId: string): Promise<TemplateRecord[]>;
}
