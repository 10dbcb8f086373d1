/**
 * Where stored templates' bytes live on the blob store: one folder per account and content, so versions and names
 * with the same bytes share one copy, and an account's folder goes with the account.
 */
import { randomBytes } from 'node:crypto';

export function accountTemplatesPrefix(accountId: string): string {
  return `templates/${accountId}`;
}

export function templateContentPrefix(accountId: string, sha256: string): string {
  return `${accountTemplatesPrefix(accountId)}/${sha256}`;
}

export function templateBlobKey(accountId: string, sha256: string): string {
  return `${templateContentPrefix(accountId, sha256)}/template.pptx`;
}

/** 128 random bits: an id nobody can guess, told apart from a file name by its prefix. */
export function newTemplateId(): string {
  return `tpl_${randomBytes(16).toString('hex')}`;
}

export const TEMPLATE_ID_PATTERN = /^tpl_[0-9a-f]{32}$/;
