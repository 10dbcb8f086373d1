/**
 * The Open XML SDK validator (@ooxml-tools/validate, .NET on WebAssembly), compared differentially against
 * the template: real PowerPoint decks have non-zero baselines (ooxml-notes.md §11, [sdk#1218]), so only
 * errors the template does not already have count.
 */
import { createHash } from 'node:crypto';
import validate from '@ooxml-tools/validate';
import { corpusFile } from './corpus.js';

export interface ValidatorResult {
  id: string;
  description: string;
  path: { xpath: string; partUri: string };
}

/** The id given to the one pseudo-error reported when the validator itself throws on a package. */
export const VALIDATOR_CRASHED = 'ValidatorCrashed';

// The WASM runtime boots on first use (~5 s) and is kept by the module cache: one instance per test
// process. Calls are chained so that concurrent tests never enter the runtime at the same time.
let queue: Promise<unknown> = Promise.resolve();

/** Every validator error of a .pptx (a validator crash becomes one VALIDATOR_CRASHED result). */
export function validatePptx(bytes: Uint8Array): Promise<ValidatorResult[]> {
  const run = async (): Promise<ValidatorResult[]> => {
    try {
      const results = await validate(new Uint8Array(bytes), 'pptx', 'Microsoft365');
      return results.map((r) => ({
        id: r.id,
        description: r.description,
        path: { xpath: r.path.xpath, partUri: r.path.partUri },
      }));
    } catch (e) {
      return [
        {
          id: VALIDATOR_CRASHED,
          description: String((e as Error).message ?? e),
          path: { xpath: '', partUri: '' },
        },
      ];
    }
  };
  const result = queue.then(run, run);
  queue = result;
  return result;
}

/**
 * An error's identity across cloning: part names are renumbered (slide7.xml -> slide3.xml), so the
 * part is reduced to its kind; the xpath keeps its indices.
 */
export function validatorErrorKey(r: ValidatorResult): string {
  return [r.id, r.description, r.path.partUri.replace(/\d+/g, '#').toLowerCase(), r.path.xpath].join(' | ');
}

const templateKeys = new Map<string, Promise<Set<string>>>();

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function keysOfTemplate(sha: string, template: Uint8Array): Promise<Set<string>> {
  let keys = templateKeys.get(sha);
  if (!keys) {
    keys = validatePptx(template).then((rs) => new Set(rs.map(validatorErrorKey)));
    templateKeys.set(sha, keys);
  }
  return keys;
}

/**
 * Errors of `output` whose key the template (any of the templates) never has. A key a template has at least
 * once is allowed any number of times (a slide cloned three times repeats its template's error three times).
 */
export async function newValidatorErrors(
  output: Uint8Array,
  template: Uint8Array | readonly Uint8Array[],
): Promise<ValidatorResult[]> {
  const templates = template instanceof Uint8Array ? [template] : template;
  const outputSha = sha256(output);
  // The very same bytes as a template have exactly that template's errors.
  if (templates.some((t) => sha256(t) === outputSha)) return [];
  const [keySets, errors] = await Promise.all([
    Promise.all(templates.map((t) => keysOfTemplate(sha256(t), t))),
    validatePptx(output),
  ]);
  return errors.filter((e) => !keySets.some((keys) => keys.has(validatorErrorKey(e))));
}

/** The error count recorded in the corpus manifest (`ooxml_sdk_validator_baseline.errors`). */
export function validatorBaseline(file: string): number | undefined {
  return corpusFile(file).baseline;
}

export function formatValidatorResult(r: ValidatorResult): string {
  return `${r.id} ${r.path.partUri} ${r.path.xpath}: ${r.description}`;
}
