/**
 * Small surgery on a package for tests: take a real deck, break exactly one thing, zip it again.
 * Uses fflate directly (never src/engine), so a broken fixture is broken by the test, not by our code.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';

export type PackageFiles = Record<string, Uint8Array>;

/** Unzips, lets `edit` change the entry map in place (add, delete, replace), zips again. */
export function editPackage(bytes: Uint8Array, edit: (files: PackageFiles) => void): Uint8Array {
  const files = unzipSync(bytes);
  edit(files);
  return zipSync(files);
}

/** Rewrites one part's text. Throws when the part is missing or the edit changed nothing. */
export function editPart(bytes: Uint8Array, item: string, edit: (xml: string) => string): Uint8Array {
  return editPackage(bytes, (files) => {
    const data = files[item];
    if (!data) throw new Error(`editPart: no entry ${item}`);
    const before = strFromU8(data);
    const after = edit(before);
    if (after === before) throw new Error(`editPart: the edit left ${item} unchanged`);
    files[item] = strToU8(after);
  });
}
