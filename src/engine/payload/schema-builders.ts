/**
 * A small schema language for `jsonData` (docs/payload.md). Each builder is the single source for three things:
 * how a value is validated and normalised, the TypeScript type it produces, and the JSON Schema fragment
 * published at /openapi.json. A hand-written language instead of a general validator because the payload needs
 * error texts that name the JSON path and what was expected, warnings (not errors) for unknown keys, `null`
 * treated as "not given" (the hosted API's .NET clients serialise unset properties as null), and speed:
 * one pass, no backtracking over union alternatives (a union dispatches on the JSON type of the value).
 */
import { EngineError } from '../errors.js';
import { Abandoned, INVALID, type ParseContext, type PathKey } from './parse-context.js';

export type JsonSchema = { [key: string]: unknown };
/**
 * The named definitions of a published schema, filled as named specs are first met, and where references to
 * them point: `#/$defs/` in the standalone schema, or e.g. `#/components/schemas/` when hoisted into OpenAPI.
 */
export class SchemaDefs {
  readonly entries = new Map<string, JsonSchema>();
  constructor(readonly refPrefix = '#/$defs/') {}
}

export interface Spec<T> {
  /** What a valid value is, as a phrase: "an integer >= 0", "a colour (#RRGGBB, …)". */
  readonly expected: string;
  /** Validates and normalises `value`, which sits at `ctx.path()`. */
  parse(value: unknown, ctx: ParseContext): T;
  toJsonSchema(defs: SchemaDefs): JsonSchema;
}

export type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';

export function jsonType(value: unknown): JsonType | 'undefined' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  if (t === 'string' || t === 'number' || t === 'boolean' || t === 'object') return t;
  return 'undefined';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How a rejected value is quoted in a message: short, and never the whole of a large array or object. */
export function describeValue(value: unknown): string {
  switch (jsonType(value)) {
    case 'undefined':
      return 'nothing';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    case 'string': {
      const s = value as string;
      return JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);
    }
    default:
      return String(value);
  }
}

/** Throws the 400 of docs/payload.md: `<path>: expected <what>, got <value>`, at the current path (or below). */
export function fail(ctx: ParseContext, expected: string, value: unknown, ...below: PathKey[]): never {
  throw new EngineError(
    'INVALID_PAYLOAD',
    `expected ${expected}, got ${describeValue(value)}`,
    ctx.path(...below),
  );
}

export function refuse(ctx: ParseContext, message: string, ...below: PathKey[]): never {
  throw new EngineError('INVALID_PAYLOAD', message, ctx.path(...below));
}

export function custom<T>(
  expected: string,
  schema: JsonSchema,
  parse: (value: unknown, ctx: ParseContext) => T,
): Spec<T> {
  // A fresh copy each time: the published schema is frozen, the constants it is made from are not.
  return { expected, parse, toJsonSchema: () => structuredClone(schema) };
}

export function string(
  opts: { minLength?: number; maxLength?: number; expected?: string } = {},
): Spec<string> {
  const min = opts.minLength ?? 0;
  const max = opts.maxLength ?? Infinity;
  const expected = opts.expected ?? (min > 0 ? 'a non-empty string' : 'a string');
  const schema: JsonSchema = { type: 'string' };
  if (min > 0) schema.minLength = min;
  if (max !== Infinity) schema.maxLength = max;
  return custom(expected, schema, (value, ctx) => {
    if (typeof value !== 'string' || value.length < min || value.length > max) fail(ctx, expected, value);
    return value;
  });
}

export function boolean(): Spec<boolean> {
  return custom('true or false', { type: 'boolean' }, (value, ctx) => {
    if (typeof value !== 'boolean') fail(ctx, 'true or false', value);
    return value;
  });
}

export function number(opts: { min?: number; max?: number; integer?: boolean } = {}): Spec<number> {
  const { min, max, integer = false } = opts;
  const noun = integer ? 'an integer' : 'a number';
  let expected = noun;
  if (min !== undefined && max !== undefined) expected = `${noun} from ${min} to ${max}`;
  else if (min !== undefined) expected = `${noun} >= ${min}`;
  else if (max !== undefined) expected = `${noun} <= ${max}`;
  const schema: JsonSchema = { type: integer ? 'integer' : 'number' };
  if (min !== undefined) schema.minimum = min;
  if (max !== undefined) schema.maximum = max;
  return custom(expected, schema, (value, ctx) => {
    if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      (integer && !Number.isInteger(value)) ||
      (min !== undefined && value < min) ||
      (max !== undefined && value > max)
    ) {
      fail(ctx, expected, value);
    }
    return value;
  });
}

/**
 * A closed set of names, matched case-insensitively (the hosted API is a .NET service, whose enum binding
 * ignores case, so its clients send `Left` and `left` alike), each mapped to its normalised value.
 */
export function enumOf<V>(names: Readonly<Record<string, V>>): Spec<V> {
  const lookup = new Map<string, V>();
  for (const [name, v] of Object.entries(names)) lookup.set(name.toLowerCase(), v);
  const listed = Object.keys(names);
  const expected = `one of ${listed.map((n) => JSON.stringify(n)).join(', ')}`;
  const caseless = (name: string): string =>
    [...name]
      .map((c) =>
        c.toLowerCase() !== c.toUpperCase()
          ? `[${c.toLowerCase()}${c.toUpperCase()}]`
          : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('');
  const schema: JsonSchema = {
    type: 'string',
    pattern: `^(?:${listed.map(caseless).join('|')})$`,
    description: `${expected} (case-insensitive)`,
    examples: listed,
  };
  return custom(expected, schema, (value, ctx) => {
    const hit = typeof value === 'string' ? lookup.get(value.toLowerCase()) : undefined;
    if (hit === undefined) fail(ctx, expected, value);
    return hit;
  });
}

export function arrayOf<T>(
  item: Spec<T>,
  opts: {
    minItems?: number;
    maxItems?: number;
    expected?: string;
    /** The refusal when there are more than maxItems. */
    tooMany?: (count: number) => string;
  } = {},
): Spec<T[]> {
  const min = opts.minItems ?? 0;
  const max = opts.maxItems ?? Infinity;
  const expected =
    opts.expected ?? `${min > 0 ? 'a non-empty array' : 'an array'} whose items are each ${item.expected}`;
  return {
    expected,
    parse(value, ctx) {
      if (!Array.isArray(value) || value.length < min) fail(ctx, expected, value);
      // Refused before any item is read: a limit exists to bound the work.
      if (value.length > max)
        refuse(ctx, opts.tooMany?.(value.length) ?? `expected at most ${max} items, got ${value.length}`);
      const errorsBefore = ctx.errorCount;
      const out = new Array<T>(value.length);
      for (let i = 0; i < value.length; i++) {
        const parsed = ctx.attempt(i, () => item.parse(value[i], ctx));
        if (parsed !== INVALID) out[i] = parsed;
      }
      // Every bad item is recorded; the array itself cannot be built.
      if (ctx.errorCount > errorsBefore) throw new Abandoned();
      return out;
    },
    toJsonSchema(defs) {
      const schema: JsonSchema = { type: 'array', items: item.toJsonSchema(defs) };
      if (min > 0) schema.minItems = min;
      if (max !== Infinity) schema.maxItems = max;
      return schema;
    },
  };
}

/** Adds a description to the published schema of `spec` (for /openapi.json and /docs). */
export function described<T>(description: string, spec: Spec<T>): Spec<T> {
  return {
    expected: spec.expected,
    parse: (value, ctx) => spec.parse(value, ctx),
    toJsonSchema: (defs) => ({ description, ...spec.toJsonSchema(defs) }),
  };
}

/** Normalises the output of a spec; validation and schema stay those of `spec`. */
export function transform<T, U>(spec: Spec<T>, fn: (value: T, ctx: ParseContext) => U): Spec<U> {
  return {
    expected: spec.expected,
    parse: (value, ctx) => fn(spec.parse(value, ctx), ctx),
    toJsonSchema: (defs) => spec.toJsonSchema(defs),
  };
}

/** Publishes `spec` once under `$defs/<name>` and refers to it everywhere else. */
export function named<T>(name: string, spec: Spec<T>, description?: string): Spec<T> {
  return {
    expected: spec.expected,
    parse: (value, ctx) => spec.parse(value, ctx),
    toJsonSchema(defs) {
      if (!defs.entries.has(name)) {
        defs.entries.set(name, {}); // placeholder first, so a self-reference cannot recurse forever
        const schema = spec.toJsonSchema(defs);
        defs.entries.set(name, description ? { description, ...schema } : schema);
      }
      return { $ref: `${defs.refPrefix}${name}` };
    },
  };
}

/**
 * A union decided by the JSON type of the value alone, so there is never a second attempt and the error is the
 * one of the alternative the value's type selects (or the union's own phrase when no alternative takes it).
 */
export function byJsonType<T>(expected: string, alternatives: Partial<Record<JsonType, Spec<T>>>): Spec<T> {
  const entries = Object.entries(alternatives) as [JsonType, Spec<T>][];
  return {
    expected,
    parse(value, ctx) {
      const t = jsonType(value);
      const alt = t === 'undefined' ? undefined : alternatives[t];
      if (!alt) fail(ctx, expected, value);
      return alt.parse(value, ctx);
    },
    toJsonSchema(defs) {
      // Alternatives with the same schema (one spec serving two JSON types) are published once.
      const seen = new Set<Spec<T>>();
      const anyOf: JsonSchema[] = [];
      for (const [, spec] of entries) {
        if (seen.has(spec)) continue;
        seen.add(spec);
        anyOf.push(spec.toJsonSchema(defs));
      }
      return anyOf.length === 1 ? (anyOf[0] as JsonSchema) : { anyOf };
    },
  };
}

/** An object, or (the hosted API's habit for `settings`) an array holding exactly one such object. */
export function objectOrSingleton<T>(spec: Spec<T>): Spec<T | null> {
  const expected = `${spec.expected} (or an array holding one)`;
  return {
    expected,
    parse(value, ctx) {
      if (!Array.isArray(value)) return spec.parse(value, ctx);
      if (value.length === 0) return null;
      if (value.length > 1) refuse(ctx, `expected ${expected}, got an array of ${value.length} items`);
      ctx.enter(0);
      const parsed = spec.parse(value[0], ctx);
      ctx.leave();
      return parsed;
    },
    toJsonSchema(defs) {
      const one = spec.toJsonSchema(defs);
      return { anyOf: [one, { type: 'array', items: one, maxItems: 1 }] };
    },
  };
}
