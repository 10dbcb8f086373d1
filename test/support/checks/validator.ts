/**
 * The Open XML SDK validator (@ooxml-tools/validate, .NET on WebAssembly), compared differentially against the
 * template: real PowerPoint decks have non-zero baselines (docs/powerpoint-rules.md
 * "How the tests check these rules"), so only errors the template does not already have count.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { strFromU8, strToU8, zipSync } from 'fflate';
import { corpusFile, corpusFiles } from '../corpus/corpus.js';
import { isRelsPart, openPackage, partNameOf, sourceOfRelsPart } from '../readers/opc-package.js';
import { countTemplateFindings, mapPartSources, newFindings, type TemplateCounts } from './part-sources.js';
import { readCachedResults, writeCachedResults } from './validator-cache.js';

export interface ValidatorResult {
  id: string;
  description: string;
  /** partUri is '' for an error of the package itself (a relationship of the package root). */
  path: { xpath: string; partUri: string };
}

/** The id given to the one pseudo-error reported when the validator itself throws on a package. */
export const VALIDATOR_CRASHED = 'ValidatorCrashed';

/** The library's .NET side, as far as `withPackageLevelPaths` uses it (the library types it `any`). */
interface ValidatorRuntime {
  getConfig(): { mainAssemblyName: string };
  getAssemblyExports(name: string): Promise<{ Docxidator?: { Process?: (...args: unknown[]) => string } }>;
}

let patched: Promise<void> | undefined;

/**
 * The library, loaded on first use: its module is 42 MB of JavaScript (the .NET runtime and assemblies inline), about
 * two seconds of CPU to load, which a process that validates through the shared validator never needs.
 */
function validatorLibrary(): Promise<typeof import('@ooxml-tools/validate')> {
  return import('@ooxml-tools/validate');
}

/**
 * @ooxml-tools/validate 0.4.6 reads `Path.XPath` of every error the .NET side reports, but an error of the
 * package itself has no path (unstructured/science-exploration-1p.pptx: "the package cannot have a
 * relationship that targets part CustomXmlPart…"), and that read throws: such a deck was never validated.
 * The JSON the .NET side returns (`Docxidator.Process`, on the one exports object the runtime caches) gets an
 * empty path for those errors before the library maps it. Should the library change shape, nothing is
 * patched, and its crash is reported as a problem of the output (`newValidatorErrors`), not hidden.
 */
function withPackageLevelPaths(): Promise<void> {
  patched ??= (async () => {
    const { ready } = await validatorLibrary();
    const runtime = (await ready()) as ValidatorRuntime;
    const exports = await runtime.getAssemblyExports(runtime.getConfig().mainAssemblyName);
    const docxidator = exports.Docxidator;
    const process = docxidator?.Process;
    if (!docxidator || !process) return;
    docxidator.Process = (...args: unknown[]): string => {
      const json = process(...args);
      const errors = JSON.parse(json) as unknown;
      if (!Array.isArray(errors)) return json;
      const withPaths = errors.map((e: { Path?: unknown }) =>
        e.Path ? e : { ...e, Path: { XPath: '', PartUri: '' } },
      );
      return JSON.stringify(withPaths);
    };
  })();
  return patched;
}

// The WASM runtime boots on first use (seconds of CPU) and is kept by the module cache: one instance per test
// process, or one for all the files that run in processes of their own (validator-service.ts). Calls are chained
// so that concurrent tests never enter the runtime at the same time.
let queue: Promise<unknown> = Promise.resolve();

/** What the SDK throws when an internal relationship targets a part the package lacks. */
const MISSING_PART_CRASH = 'Specified part does not exist in the package.';

/** The validator of this process (validator-server.ts runs it for the others). */
export async function validateInProcess(
  bytes: Uint8Array,
  kind: 'pptx' | 'xlsx',
): Promise<ValidatorResult[]> {
  await withPackageLevelPaths();
  const { default: validate } = await validatorLibrary();
  const results = await validate(new Uint8Array(bytes), kind, 'Microsoft365');
  return results.map((r) => ({
    id: r.id,
    description: r.description,
    path: { xpath: r.path.xpath, partUri: r.path.partUri },
  }));
}

/** The shared validator's answer for a package; its errors (a crash of the validator) are thrown, as in process. */
export function validateShared(
  socketPath: string,
  bytes: Uint8Array,
  kind: 'pptx' | 'xlsx',
): Promise<ValidatorResult[]> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { socketPath, path: `/${kind}`, method: 'POST', agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as
            ValidatorResult[] | { error: string };
          if (response.statusCode === 200 && Array.isArray(body)) resolve(body);
          else
            reject(
              new Error(
                'error' in body ? body.error : `the shared validator answered ${response.statusCode}`,
              ),
            );
        });
      },
    );
    request.on('error', (error) =>
      reject(new Error(`the shared validator (${socketPath}) could not be reached: ${error.message}`)),
    );
    request.end(bytes);
  });
}

function runValidator(bytes: Uint8Array, kind: 'pptx' | 'xlsx' = 'pptx'): Promise<ValidatorResult[]> {
  const socket = process.env.DECKFORGE_VALIDATOR_SOCKET;
  return socket ? validateShared(socket, bytes, kind) : validateInProcess(bytes, kind);
}

/**
 * Every validator error of a .pptx (a validator crash becomes one VALIDATOR_CRASHED result). The SDK stops
 * at the first internal relationship whose target part is missing, validating nothing; such a package is
 * validated once more with those relationships marked external, so that all the rest is checked. The missing
 * targets themselves are the package-invariant check's (`rel-target-missing`), compared per source part.
 */
export function validatePptx(bytes: Uint8Array): Promise<ValidatorResult[]> {
  const run = async (): Promise<ValidatorResult[]> => {
    try {
      return await runValidator(bytes);
    } catch (first) {
      let error = first;
      if (String((first as Error).message) === MISSING_PART_CRASH) {
        try {
          return await runValidator(withMissingTargetsExternal(bytes));
        } catch (second) {
          error = second;
        }
      }
      return [
        {
          id: VALIDATOR_CRASHED,
          description: String((error as Error).message ?? error),
          path: { xpath: '', partUri: '' },
        },
      ];
    }
  };
  const result = queue.then(run, run);
  queue = result;
  return result;
}

/** Every validator error of an .xlsx (a chart's embedded workbook), taking its turn with the decks. */
export function validateXlsx(bytes: Uint8Array): Promise<ValidatorResult[]> {
  const run = (): Promise<ValidatorResult[]> => runValidator(bytes, 'xlsx');
  const result = queue.then(run, run);
  queue = result;
  return result;
}

/** The package with every internal relationship whose target part is missing marked TargetMode="External". */
function withMissingTargetsExternal(bytes: Uint8Array): Uint8Array {
  const pkg = openPackage(bytes, () => undefined);
  const entries = Object.fromEntries(pkg.entries);
  for (const item of Object.keys(entries)) {
    if (!isRelsPart(partNameOf(item))) continue;
    const missing = new Set(
      (pkg.rels.get(sourceOfRelsPart(partNameOf(item))) ?? [])
        .filter((r) => !r.external && r.targetPart && !pkg.partsByLowerName.has(r.targetPart.toLowerCase()))
        .map((r) => r.id),
    );
    if (missing.size === 0) continue;
    entries[item] = strToU8(
      strFromU8(entries[item] as Uint8Array).replace(/<Relationship\b[^>]*?\/?>/g, (element) => {
        const id = /\bId="([^"]*)"/.exec(element)?.[1];
        return id !== undefined && missing.has(id) && !/TargetMode=/.test(element)
          ? element.replace(/<Relationship\b/, '<Relationship TargetMode="External"')
          : element;
      }),
    );
  }
  return zipSync(entries);
}

/**
 * An error's identity within its part: cloning and renaming keep a part's XML, so the same error stands at the
 * same xpath of the copy. Which part is compared with which is part-sources.ts's business.
 */
export function validatorErrorKey(r: ValidatorResult): string {
  // A chart's series and points repeat by design: an error the template has on one series or point (the
  // validator not knowing Office 2013 label markup) is the same error on a series or point cloned from it.
  const xpath = isChartPart(r.path.partUri) ? r.path.xpath.replace(/\[\d+\]/g, '') : r.path.xpath;
  return [r.id, r.description, xpath].join(' | ');
}

function isChartPart(partUri: string): boolean {
  return partUri.toLowerCase().startsWith('/ppt/charts/');
}

const templateErrors = new Map<string, Promise<ValidatorResult[]>>();

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The validator errors of a template, computed once per template bytes (and kept on disk, validator-cache.ts). */
export function errorsOfTemplate(template: Uint8Array): Promise<ValidatorResult[]> {
  const sha = sha256(template);
  let errors = templateErrors.get(sha);
  if (!errors) {
    // A corpus deck the manifest records with no errors has none to allow: its own run (over a minute for the
    // largest decks) is skipped. This can only make the check stricter, never looser; validator.test.ts holds
    // the manifest to what the validator says.
    const cached = readCachedResults<ValidatorResult>(sha);
    errors =
      cached !== undefined
        ? Promise.resolve(cached)
        : corpusFiles().find((f) => f.sha256 === sha)?.baseline === 0
          ? Promise.resolve([])
          : validatePptx(template).then((results) => {
              // A crash may be the moment's (memory, a timeout); only a finished validation is kept.
              if (!results.some((r) => r.id === VALIDATOR_CRASHED)) writeCachedResults(sha, results);
              return results;
            });
    templateErrors.set(sha, errors);
  }
  return errors;
}

/**
 * Errors of `output` that the template part it came from does not have (see part-sources.ts), each allowed
 * as often as that part has it (a slide cloned three times repeats its template slide's error three times).
 * A crash of the validator on the output is always new: it means the output was not validated at all. A deck
 * made from several templates lists them all, the one it is built on first.
 */
export async function newValidatorErrors(
  output: Uint8Array,
  template: Uint8Array | readonly Uint8Array[],
): Promise<ValidatorResult[]> {
  const templates = template instanceof Uint8Array ? [template] : template;
  const outputSha = sha256(output);
  // The very same bytes as a template have exactly that template's errors (a crash included).
  if (templates.some((t) => sha256(t) === outputSha)) return [];
  const [perTemplate, errors] = await Promise.all([
    Promise.all(templates.map(errorsOfTemplate)),
    validatePptx(output),
  ]);
  const crashed = errors.filter((e) => e.id === VALIDATOR_CRASHED);
  if (crashed.length > 0) return crashed;
  const partOf = (e: ValidatorResult): string => e.path.partUri;
  const found = countTemplateFindings(
    perTemplate.map((list) => list.filter((e) => e.id !== VALIDATOR_CRASHED)),
    partOf,
    validatorErrorKey,
  );
  // In a chart part, an error its source has once may repeat on every series or point cloned from it.
  const counts: TemplateCounts = (source, key) => {
    const n = found(source, key);
    return n > 0 && isChartPart(source.slice(source.indexOf(':') + 1)) ? Infinity : n;
  };
  let pkg;
  try {
    pkg = openPackage(output, () => undefined);
  } catch {
    return errors; // not a ZIP: nothing to compare part by part (the invariant check says why)
  }
  return newFindings(errors, partOf, validatorErrorKey, mapPartSources(pkg, templates), counts);
}

/** The error count recorded in the corpus manifest (`ooxml_sdk_validator_baseline.errors`). */
export function validatorBaseline(file: string): number | undefined {
  return corpusFile(file).baseline;
}

export function formatValidatorResult(r: ValidatorResult): string {
  return `${r.id} ${r.path.partUri} ${r.path.xpath}: ${r.description}`;
}
