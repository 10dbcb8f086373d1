/** Where a make-*-template.ts script writes: the folder given as its first argument, else examples/ itself. */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export function outputFolder(): URL {
  const given = process.argv[2];
  return given ? pathToFileURL(`${resolve(given)}/`) : new URL('./', import.meta.url);
}
