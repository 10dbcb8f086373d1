/**
 * The `jsonData` contract (docs/payload.md): the raw payload in, the alias-free model.ts `DeckRequest` out, with
 * warnings for what was ignored or adjusted. The rules are written once, in the spec objects this module
 * assembles (`presentation-request.ts` and what it uses); the published JSON Schema is generated from them.
 */
import { EngineError, type Warning } from '../errors.js';
import { checkJsonLimits, parseJsonText } from './json-syntax.js';
import type { DeckRequest } from './model.js';
import { presentationSpec } from './presentation-request.js';
import { describeValue, isRecord, SchemaDefs, type JsonSchema } from './schema-builders.js';
import { ParseContext } from './parse-context.js';
import { canonicalLocale, DEFAULT_LOCALE } from './locale-text.js';
import { closestName } from '../names/closest-name.js';

export interface ParsedPayload {
  request: DeckRequest;
  warnings: Warning[];
}

const ROOT_EXPECTED = 'a JSON object with a "presentation" object (or the presentation fields at the root)';
/** Keys that show a root object is the presentation itself (the envelope without `presentation`). */
const PRESENTATION_KEYS = ['template', 'template_list', 'slides'];

/** Validates and normalises a parsed `jsonData`; throws EngineError INVALID_PAYLOAD naming the JSON path. */
export function parsePayload(json: unknown): ParsedPayload {
  if (!isRecord(json)) {
    throw new EngineError('INVALID_PAYLOAD', `expected ${ROOT_EXPECTED}, got ${describeValue(json)}`);
  }
  let request: DeckRequest;
  let ctx: ParseContext;
  if (Object.hasOwn(json, 'presentation')) {
    const context = new ParseContext('presentation', localeOf(json.presentation));
    for (const key of Object.keys(json)) {
      if (key !== 'presentation') context.warnAt(key, `unknown key "${key}" ignored`, 'UNKNOWN_KEY');
    }
    request = context.run(() => presentationSpec.parse(json.presentation, context));
    ctx = context;
  } else if (PRESENTATION_KEYS.some((key) => Object.hasOwn(json, key))) {
    const context = new ParseContext('', localeOf(json));
    request = context.run(() => presentationSpec.parse(json, context));
    ctx = context;
  } else {
    const keys = Object.keys(json);
    const got =
      keys.length === 0
        ? 'an empty object'
        : `an object with ${keys
            .slice(0, 5)
            .map((k) => JSON.stringify(k))
            .join(', ')}`;
    throw new EngineError('INVALID_PAYLOAD', `expected ${ROOT_EXPECTED}, got ${got}${rootHint(keys)}`);
  }
  return { request, warnings: ctx.warnings() };
}

/** A root key that is a misspelling of `presentation` or of a presentation field, named. */
function rootHint(keys: readonly string[]): string {
  for (const key of keys) {
    const closest = closestName(key, ['presentation', ...PRESENTATION_KEYS]);
    if (closest !== null) return ` (did you mean "${closest}" for "${key}"?)`;
  }
  return '';
}

/**
 * The locale typed values are written in is needed while the slides are parsed, wherever `locale` stands among
 * the keys; a bad one is reported by the field's own spec, and the default serves meanwhile.
 */
function localeOf(presentation: unknown): string {
  const raw = isRecord(presentation) ? presentation.locale : undefined;
  return (typeof raw === 'string' ? canonicalLocale(raw) : null) ?? DEFAULT_LOCALE;
}

/** `parsePayload` for the `jsonData` form field as sent: malformed JSON is reported with line and column. */
export function parsePayloadText(jsonText: string): ParsedPayload {
  const text = jsonText.charCodeAt(0) === 0xfeff ? jsonText.slice(1) : jsonText;
  if (text.trim() === '')
    throw new EngineError('INVALID_PAYLOAD', 'expected a JSON document, got an empty string', 'jsonData');
  checkJsonLimits(text);
  return parsePayload(parseJsonText(text));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const SCHEMA_DESCRIPTION =
  'The presentation definition sent as the jsonData form field (docs/payload.md). Unknown keys are ignored ' +
  'with a warning; null on an optional field means "not given".';

/** The root schema: `{presentation: {...}}`, or the presentation fields at the root. */
function rootSchema(defs: SchemaDefs): JsonSchema {
  const presentation = presentationSpec.toJsonSchema(defs);
  return {
    title: 'Deckforge jsonData',
    description: SCHEMA_DESCRIPTION,
    anyOf: [{ type: 'object', properties: { presentation }, required: ['presentation'] }, presentation],
  };
}

function buildJsonSchema(): JsonSchema {
  const defs = new SchemaDefs();
  const root = rootSchema(defs);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    // An $id makes `#/$defs/…` resolve within this schema even where it is embedded in another document.
    $id: 'urn:deckforge:schema:json-data',
    ...root,
    $defs: Object.fromEntries(defs.entries),
  };
}

/** The published JSON Schema (draft 2020-12) of `jsonData`, for /openapi.json. Frozen: clone it to extend it. */
export const payloadJsonSchema: object = deepFreeze(buildJsonSchema());

/**
 * The same schema split for hoisting into another document (OpenAPI `components/schemas`): `schema` is the root,
 * `definitions` its named parts, and every reference points at `refPrefix + name`.
 */
export function payloadJsonSchemaParts(refPrefix: string): {
  schema: object;
  definitions: Record<string, object>;
} {
  const defs = new SchemaDefs(refPrefix);
  const schema = rootSchema(defs);
  return { schema, definitions: Object.fromEntries(defs.entries) };
}
