/**
 * What the request's uploaded files say about the payload: a file nothing in the payload names was most likely
 * meant for a shape, and a text value that is exactly an uploaded file's name was most likely meant as a
 * picture (docs/payload-pictures.md). Both are warnings: the deck is still made.
 */
import type { Warning } from '../errors.js';
import { isHttpUrl } from '../payload/picture-source-uses.js';

/** One warning per uploaded file the payload never used; files fetched from a URL are the payload's own. */
export function unusedFileWarnings(
  files: ReadonlyMap<string, Uint8Array>,
  used: ReadonlySet<string>,
): Warning[] {
  const warnings: Warning[] = [];
  for (const name of files.keys()) {
    if (used.has(name) || isHttpUrl(name)) continue;
    warnings.push({
      path: 'files',
      message: `uploaded file "${name}" is not used: no template or picture of the payload names it`,
    });
  }
  return warnings;
}

/** The warning for text written into a text shape that is an uploaded file's name. */
export function fileNameAsTextWarning(name: string, shapeName: string, path: string): Warning {
  return {
    path,
    message:
      `"${name}" is the name of an uploaded file, but shape "${shapeName}" is a text shape, so it was ` +
      `written as text; to put the picture into this shape, give it as "filename": "${name}"`,
  };
}
