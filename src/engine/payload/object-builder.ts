/**
 * The object builder of the payload schema language: named fields, each with its own spec; unknown keys are
 * ignored with a warning (docs/payload.md "Rules that hold everywhere"); `null` on an optional field means
 * "not given"; groups of keys where one is needed (`name` or `shapeId`) or only one is allowed (`template` or
 * `template_list`). The `build` step turns the parsed fields into the model, which is where aliases collapse.
 */
import { fail, isRecord, refuse, type JsonSchema, type SchemaDefs, type Spec } from './schema-builders.js';
import { Abandoned, INVALID, type ParseContext } from './parse-context.js';
import { closestName, didYouMean } from '../names/closest-name.js';

export interface RequiredSpec<T> {
  readonly requiredSpec: Spec<T>;
}

export function required<T>(spec: Spec<T>): RequiredSpec<T> {
  return { requiredSpec: spec };
}

export type Fields = Record<string, Spec<unknown> | RequiredSpec<unknown>>;

export type FieldValues<F extends Fields> = {
  [K in keyof F]: F[K] extends RequiredSpec<infer T> ? T : F[K] extends Spec<infer T> ? T | undefined : never;
};

export interface ObjectRules<K extends string> {
  /** At least one key of each group must be given. */
  oneRequired?: readonly (readonly K[])[];
  /** At most one key of each group may be given. */
  exclusive?: readonly (readonly K[])[];
  description?: string;
}

interface FieldEntry {
  spec: Spec<unknown>;
  required: boolean;
}

function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  const { anyOf, ...rest } = schema;
  if (Array.isArray(anyOf) && !('$ref' in rest)) return { ...rest, anyOf: [...anyOf, { type: 'null' }] };
  return { anyOf: [schema, { type: 'null' }] };
}

function listKeys(keys: readonly string[]): string {
  if (keys.length <= 2) return keys.join(' or ');
  return `${keys.slice(0, -1).join(', ')} or ${keys[keys.length - 1]}`;
}

export function object<F extends Fields, T>(
  expected: string,
  fields: F,
  build: (f: FieldValues<F>, ctx: ParseContext) => T,
  rules: ObjectRules<keyof F & string> = {},
): Spec<T> {
  const table = new Map<string, FieldEntry>();
  for (const [key, f] of Object.entries(fields)) {
    table.set(
      key,
      'requiredSpec' in f ? { spec: f.requiredSpec, required: true } : { spec: f, required: false },
    );
  }
  const requiredKeys = [...table].filter(([, f]) => f.required).map(([k]) => k);
  const oneRequired = rules.oneRequired ?? [];
  const exclusive = rules.exclusive ?? [];

  const oneRequiredGroups = oneRequired.map((g) => [...g]);
  const exclusiveGroups = exclusive.map((g) => [...g]);

  return {
    expected,
    parse(value, ctx) {
      if (!isRecord(value)) fail(ctx, expected, value);
      const errorsBefore = ctx.errorCount;
      // Only known keys are ever assigned, so a `__proto__` key in the JSON stays inert. A field that fails is
      // recorded (ctx.attempt) and the others are still read, so one answer lists every problem.
      const out: Record<string, unknown> = {};
      const invalid = new Set<string>();
      // A misspelt key is named with the key it most likely stands for, and a required key found missing
      // says which unknown key was probably meant for it.
      const meantFor = new Map<string, string>();
      for (const key in value) {
        const field = table.get(key);
        const raw = value[key];
        if (field === undefined) {
          const closest = closestName(key, table.keys());
          if (closest !== null && !Object.hasOwn(value, closest)) meantFor.set(closest, key);
          ctx.warnUnknownKey(`unknown key "${key}" ignored${didYouMean(key, table.keys())}`, key);
          continue;
        }
        if (raw === null && !field.required) continue;
        const parsed = ctx.attempt(key, () => field.spec.parse(raw, ctx));
        if (parsed === INVALID) invalid.add(key);
        else out[key] = parsed;
      }
      const given = (key: string): boolean => out[key] !== undefined || invalid.has(key);
      for (let i = 0; i < requiredKeys.length; i++) {
        const key = requiredKeys[i] as string;
        if (!given(key)) {
          const expected = (table.get(key) as FieldEntry).spec.expected;
          const misspelt = meantFor.get(key);
          ctx.attempt(null, () =>
            misspelt === undefined
              ? fail(ctx, expected, value[key], key)
              : refuse(
                  ctx,
                  `expected ${expected}, got nothing; unknown key "${misspelt}" given (did you mean "${key}"?)`,
                  key,
                ),
          );
        }
      }
      for (let g = 0; g < oneRequiredGroups.length; g++) {
        const group = oneRequiredGroups[g] as string[];
        // Said of the object; of the document itself (no path), of the first key, so that it has a path too.
        const at = ctx.path() === '' ? [group[0] as string] : [];
        const misspelt = group.map((k) => meantFor.get(k)).find((k) => k !== undefined);
        const hint =
          misspelt === undefined ? '' : `; unknown key "${misspelt}" given${didYouMean(misspelt, group)}`;
        if (!group.some(given))
          ctx.attempt(null, () => refuse(ctx, `expected ${listKeys(group)}, got none of them${hint}`, ...at));
      }
      for (let g = 0; g < exclusiveGroups.length; g++) {
        const group = exclusiveGroups[g] as string[];
        const present = group.filter(given);
        if (present.length > 1) {
          ctx.attempt(null, () =>
            refuse(ctx, `expected only one of ${group.join(', ')}, got ${present.join(' and ')}`),
          );
        }
      }
      if (ctx.errorCount > errorsBefore) throw new Abandoned();
      return build(out as FieldValues<F>, ctx);
    },
    toJsonSchema(defs: SchemaDefs) {
      const properties: JsonSchema = {};
      for (const [key, f] of table) {
        const schema = f.spec.toJsonSchema(defs);
        properties[key] = f.required ? schema : nullable(schema);
      }
      const schema: JsonSchema = { type: 'object' };
      if (rules.description) schema.description = rules.description;
      schema.properties = properties;
      if (requiredKeys.length > 0) schema.required = requiredKeys;
      const allOf: JsonSchema[] = oneRequired.map((group) => ({
        anyOf: group.map((k) => ({ required: [k], properties: { [k]: { not: { type: 'null' } } } })),
      }));
      if (allOf.length === 1) Object.assign(schema, allOf[0]);
      else if (allOf.length > 1) schema.allOf = allOf;
      if (exclusive.length > 0) {
        // Expressed per key: when this key is given (and not null), none of its group's others may be.
        const dependentSchemas: JsonSchema = {};
        for (const group of exclusive) {
          for (const k of group) {
            dependentSchemas[k] = {
              if: { properties: { [k]: { not: { type: 'null' } } } },
              then: {
                not: {
                  anyOf: group
                    .filter((o) => o !== k)
                    .map((o) => ({ required: [o], properties: { [o]: { not: { type: 'null' } } } })),
                },
              },
            };
          }
        }
        schema.dependentSchemas = dependentSchemas;
      }
      // Unknown keys are accepted (with a warning at run time), so `additionalProperties` stays open.
      return schema;
    },
  };
}
