/**
 * A `template` (or a `template_list` entry) that names no uploaded file and no URL is one of the account's stored
 * templates (docs/http-api.md, "Stored templates"): a stored template's id gives that exact version, a name its
 * latest. An uploaded file of the same name wins, so requests that upload their template change nothing.
 */
import { countRequestedSlides, EngineError } from '../../engine/index.js';
import type { GenerationRequest } from '../deckforge-service.js';
import { InvalidInputError } from '../errors.js';
import type { PayloadSource } from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';
import { findStored, readTemplateBytes } from '../templates/template-queries.js';
import type { TemplateOwner } from '../template-service.js';
import {
  checkSlideLimits,
  checkUploads,
  missingTemplates,
  payloadSource,
  preparedRequest,
  URL_PATTERN,
  type PreparedRequest,
} from './generation-input.js';

/** Names listed in the error at most; an account with more is told how many there are. */
const NAMES_SHOWN = 20;

/**
 * The request read (its payload on a generation thread: generation-input.ts), with the stored templates it
 * names added to its files.
 */
export async function prepareWithStoredTemplates(
  deps: ServiceDeps,
  account: TemplateOwner,
  input: GenerationRequest,
  mode: 'sync' | 'async',
): Promise<PreparedRequest> {
  checkUploads(deps, input);
  const source = payloadSource(input.jsonData);
  const reading = await deps.pool.readPayload(source);
  if (!reading.accepted) {
    const { refusal, outlineTemplates } = reading;
    throw await withTemplateProblems(deps, account, input, source, refusal, outlineTemplates);
  }
  const prepared = preparedRequest(deps, input, source, reading.facts, mode);
  let stored = false;
  for (const { path, source } of missingTemplates(prepared)) {
    if (prepared.files.has(source)) continue; // named twice, found the first time
    const record = await findStored(deps, account, source);
    if (!record) throw await unknownTemplate(deps, account, prepared, path, source);
    prepared.files.set(source, await readTemplateBytes(deps, record));
    (prepared.fileHashes ??= new Map()).set(source, record.sha256);
    stored = true;
  }
  if (stored) {
    // all_slides entries of stored templates count as the template's slides now that it is at hand
    prepared.slideCount = countRequestedSlides(prepared.facts, prepared.files);
    checkSlideLimits(deps.settings.limits, prepared.slideCount, mode);
  }
  return prepared;
}

/**
 * A payload the schema refuses, with the template problems of what it still names clearly, in the one 400
 * (docs/payload.md, Validation modes): its templates (uploaded or stored; a URL is not fetched for a refused
 * request) are opened by the generation pool and checked there. Without them, the schema's refusal as it is.
 */
async function withTemplateProblems(
  deps: ServiceDeps,
  account: TemplateOwner,
  input: GenerationRequest,
  payload: PayloadSource,
  refusal: EngineError,
  outlineTemplates: string[] | null,
): Promise<EngineError> {
  if (outlineTemplates === null) return refusal;
  const files = new Map(input.files.map((file) => [file.name, file.bytes]));
  const fileHashes = new Map<string, string>();
  for (const source of outlineTemplates) {
    if (files.has(source)) continue;
    const record = URL_PATTERN.test(source) ? null : await findStored(deps, account, source);
    if (!record) return refusal;
    files.set(source, await readTemplateBytes(deps, record));
    fileHashes.set(source, record.sha256);
  }
  return deps.pool.check({ ...payload, files, fileHashes }).then(
    () => refusal,
    (error: unknown) => (error instanceof EngineError ? error : refusal),
  );
}

async function unknownTemplate(
  deps: ServiceDeps,
  account: TemplateOwner,
  prepared: PreparedRequest,
  path: string,
  source: string,
): Promise<InvalidInputError> {
  const quoted = (names: string[]): string => names.map((n) => `"${n}"`).join(', ');
  const uploaded = [...prepared.files.keys()];
  const stored = (await deps.templates.listLatest(account.id)).map((r) => r.name);
  const storedText =
    stored.length === 0
      ? 'no stored templates'
      : `the stored templates ${quoted(stored.slice(0, NAMES_SHOWN))}` +
        (stored.length > NAMES_SHOWN ? ` and ${stored.length - NAMES_SHOWN} more` : '');
  return new InvalidInputError(
    `${path}: the template "${source}" was not uploaded (the request carries ` +
      `${uploaded.length === 0 ? 'no files' : quoted(uploaded)}) and is no stored template of this account ` +
      `(it has ${storedText}); give an uploaded file's name, a stored template's name or id, or an http(s) URL`,
  );
}
