/**
 * The Open XML SDK validator (@ooxml-tools/validate, .NET on WebAssembly), compared differentially against
 * the template: real PowerPoint decks have non-zero baselines (ooxml-notes.md §11, [sdk#1218]), so only
 * errors the template does not already have count.
 */
import { createHash } from 'node:crypto';
import validate from '@ooxml-tools/validate';
import { corpusFile } from './corpus.js';
/** The id given to the one pseudo-error reported when the validator itself throws on a package. */
export const VALIDATOR_CRASHED = 'ValidatorCrashed';
// The WASM runtime boots on first use (~5 s) and is kept by the module cache: one instance per test
// process. Calls are chained so that concurrent tests never enter the runtime at the same time.
let queue = Promise.resolve();
/** Every validator error of a .pptx (a validator crash becomes one VALIDATOR_CRASHED result). */
export function validatePptx(bytes) {
    const run = async () => {
        try {
            const results = await validate(new Uint8Array(bytes), 'pptx', 'Microsoft365');
            return results.map((r) => ({
                id: r.id,
                description: r.description,
                path: { xpath: r.path.xpath, partUri: r.path.partUri },
            }));
        }
        catch (e) {
            return [
                {
                    id: VALIDATOR_CRASHED,
                    description: String(e.message ?? e),
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
export function validatorErrorKey(r) {
    return [r.id, r.description, r.path.partUri.replace(/\d+/g, '#').toLowerCase(), r.path.xpath].join(' | ');
}
const templateKeys = new Map();
function sha256(bytes) {
    return createHash('sha256').update(bytes).digest('hex');
}
function keysOfTemplate(sha, template) {
    let keys = templateKeys.get(sha);
    if (!keys) {
        keys = validatePptx(template).then((rs) => new Set(rs.map(validatorErrorKey)));
        templateKeys.set(sha, keys);
    }
    return keys;
}
/**
 * Errors of `output` whose key the template never has. A key the template has at least once is allowed
 * any number of times (a slide cloned three times repeats its template's error three times).
 */
export async function newValidatorErrors(output, template) {
    const templateSha = sha256(template);
    if (sha256(output) === templateSha)
        return []; // the very same bytes have exactly the template's errors
    const [keys, errors] = await Promise.all([keysOfTemplate(templateSha, template), validatePptx(output)]);
    return errors.filter((e) => !keys.has(validatorErrorKey(e)));
}
/** The error count recorded in the corpus manifest (`ooxml_sdk_validator_baseline.errors`). */
export function validatorBaseline(file) {
    return corpusFile(file).baseline;
}
export function formatValidatorResult(r) {
    return `${r.id} ${r.path.partUri} ${r.path.xpath}: ${r.description}`;
}
//# sourceMappingURL=validator.js.map