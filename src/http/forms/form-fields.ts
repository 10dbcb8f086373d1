/**
 * The form fields a generation request takes (docs/http-api.md, Generating). A field of another name is most
 * likely a misspelling (`jsonDat`, `formt`) whose value would otherwise be dropped without a word, so it is
 * refused, named, with the known field it is closest to.
 */
import { didYouMean } from '../../engine/index.js';
import { InvalidInputError } from '../../service/errors.js';

export const GENERATION_FIELDS = ['jsonData', 'callback_url', 'format', 'previews', 'preview_width'] as const;

const TAKES = `a generation request takes the fields files, ${GENERATION_FIELDS.join(', ')}`;

/** Throws one error naming every unknown text field (file parts of any field name are uploads). */
export function checkGenerationFields(names: Iterable<string>, alsoMeant: readonly string[] = []): void {
  const known: readonly string[] = GENERATION_FIELDS;
  const unknown = [...names].filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const named = unknown
    .map((name) => `"${name}"${didYouMean(name, [...known, 'files', ...alsoMeant])}`)
    .join(', ');
  const what = unknown.length === 1 ? 'unknown form field' : 'unknown form fields';
  throw new InvalidInputError(`${what} ${named}: ${TAKES}`);
}

/** Keys that make a JSON body the jsonData document itself (docs/http-api.md, Generating). */
const DOCUMENT_KEYS = ['presentation', 'template', 'template_list', 'slides'];

/**
 * A JSON body is `{"jsonData": …}` plus the fields above, or the jsonData document itself (whose unknown keys
 * the payload's own warnings name). One that is neither is checked as a form.
 */
export function checkJsonBodyKeys(keys: readonly string[]): void {
  if (keys.includes('jsonData')) checkGenerationFields(keys);
  else if (!keys.some((key) => DOCUMENT_KEYS.includes(key))) checkGenerationFields(keys, DOCUMENT_KEYS);
}
