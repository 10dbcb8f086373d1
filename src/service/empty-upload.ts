/**
 * The one refusal of an uploaded file of 0 bytes, on every route that takes files (generation and jobs, render,
 * inspect, stored templates): made before anything reads the file, so that a job is refused at submission and
 * not FAILED later, and worded the same everywhere (a 0-byte file is what a failed export or a mistyped curl
 * path sends, and "not a zip archive" would send the user looking inside a file that has nothing in it).
 */
import { InvalidInputError } from './errors.js';

const PRESENTATION = /\.(pptx|potx|pptm|potm|ppsx|ppsm)$/i;

/** Throws for the first empty file among `files`, naming the form field and the file. */
export function refuseEmptyUploads(
  field: 'files' | 'file',
  files: readonly { name: string; bytes: Uint8Array }[],
): void {
  const empty = files.find((file) => file.bytes.byteLength === 0);
  if (!empty) return;
  const what = PRESENTATION.test(empty.name) ? `the template "${empty.name}"` : `"${empty.name}"`;
  throw new InvalidInputError(`${field}: ${what} is empty (0 bytes); upload the file itself`);
}
