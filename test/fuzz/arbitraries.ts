/**
 * Generators for the fuzzers: `jsonData` documents that are mostly the right shape, with wrong types,
 * aliases, deep nesting, huge strings and awkward unicode mixed in, so that both the refusals and the successes
 * are reached. Run counts come from FUZZ_RUNS (`npm run fuzz` sets a large one), the seed from FUZZ_SEED (fixed
 * in `npm test`, random in `npm run fuzz`: a failure prints the seed to replay).
 */
import fc from 'fast-check';

/** Cases per property: a few hundred in `npm test` (spread over the fuzz files), many more in `npm run fuzz`. */
export function fuzzRuns(normal: number): number {
  const scale = Number(process.env.FUZZ_RUNS ?? '');
  return Number.isFinite(scale) && scale > 0 ? scale : normal;
}

/**
 * fast-check parameters shared by every property: the run count and, when given, a seed to replay. A failure
 * is reported as found (shrinking re-runs whole generations, minutes on end) unless FUZZ_SHRINK=1.
 */
export function fuzzParameters(normal: number): fc.Parameters<unknown> {
  const given = Number(process.env.FUZZ_SEED ?? '');
  // `npm test` replays the same cases on every run (CI must not turn red by chance); `npm run fuzz` explores.
  const seed =
    process.env.FUZZ_SEED && Number.isFinite(given) ? given : process.env.FUZZ_RUNS ? null : 20261123;
  return {
    numRuns: fuzzRuns(normal),
    endOnFailure: process.env.FUZZ_SHRINK !== '1',
    ...(seed === null ? {} : { seed }),
  };
}

/** Test timeout for a property: generous per case, so only a real hang times out. */
export function fuzzTimeout(normal: number, perCaseMs: number): number {
  return 30_000 + fuzzRuns(normal) * perCaseMs;
}

/** Strings that have broken parsers before: empty, control characters, lone surrogates, BOMs, RTL, tags. */
const EDGE_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\u000b\u000c',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\uffff',
  '\u202e\u202d',
  '👩‍👩‍👧‍👦',
  'e\u0301',
  '{{',
  '}}',
  '{{company}}',
  '{{ company }}',
  '{{{{x}}}}',
  '\n\n\n',
  '\r\n',
  '<p:sp>',
  ']]>',
  '&amp;',
  '&#0;',
  '../../etc/passwd',
  'https://example.com/picture.png',
  'javascript:alert(1)',
  'data:image/png;base64,AAAA',
  'NaN',
  '-0',
  '1e309',
  '__proto__',
  'constructor',
];

export const edgeString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('x', 'é', '{{t}}', '\n', '😀'), fc.integer({ min: 1_000, max: 200_000 }))
      .map(([unit, times]) => unit.repeat(times)),
  },
);

const edgeNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: -5, max: 20 }),
  fc.constantFrom(-1, 0, 255, 256, 2 ** 31, 2 ** 53, -(2 ** 53), 0.5, 1e308, -1e-308, 4000.0001),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** `depth` arrays or objects inside each other (a JSON document cannot hold NaN or undefined). */
export function nested(depth: number, kind: 'array' | 'object' = 'array'): unknown {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { x: value };
  return value;
}

const deepValue: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 1, max: 3_000 }), fc.constantFrom<'array' | 'object'>('array', 'object'))
  .map(([depth, kind]) => nested(depth, kind));

/** Any JSON value, edge cases weighted in. */
export const wildValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: edgeString },
  { weight: 3, arbitrary: edgeNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: deepValue },
);

const colour = fc.constantFrom('#C00000', 'C00000', 'RGB(1,2,3)', '1,2,3', 'rebeccapurple');

/** text_properties with valid values (the corruption step below makes them invalid often enough). */
const textProperties = fc.record(
  {
    font_type: fc.constantFrom('Arial', 'Calibri'),
    font_size: fc.integer({ min: 1, max: 4000 }),
    font_bold: fc.boolean(),
    font_italic: fc.boolean(),
    font_underline: fc.constantFrom('single', 'double', 'wavy'),
    font_color: colour,
    font_bg_color: colour,
    hyperlink: fc.constantFrom('https://example.com/', 'mailto:a@example.com', 'http://example.com/a?b=c&d'),
    text_align: fc.constantFrom('left', 'center', 'right', 'justified', 'dist'),
    text_indent: fc.double({ min: -142, max: 142, noNaN: true }),
    text_line_spacing: fc.constantFrom(1, 1.5, 9.99, 10, 1584),
    bullet: fc.boolean(),
    bullet_character_code: fc.constantFrom(8226, 9679, 65),
    bullet_indent_level: fc.integer({ min: 0, max: 8 }),
    bullet_size: fc.integer({ min: 0, max: 5000 }),
    new_line: fc.boolean(),
    font_strike: fc.boolean(),
    baseline: fc.constantFrom('superscript', 'subscript'),
  },
  { requiredKeys: [] },
);

const run = fc.record(
  { text_run: edgeString, text_properties: textProperties },
  { requiredKeys: ['text_run'] },
);

const textContent = fc.oneof(
  { weight: 3, arbitrary: edgeString },
  { weight: 2, arbitrary: fc.array(run, { maxLength: 5 }) },
);

/** Shape names of `layouts.pptx` slides 0 and 1, so that most fills land ("Nope" is skipped with a warning). */
const SHAPE_NAMES = ['Title 1', 'Subtitle 2', 'Content Placeholder 2', 'Nope'];

const shape = fc.record(
  {
    name: fc.constantFrom(...SHAPE_NAMES),
    content: textContent,
    is_hidden: fc.boolean(),
    settings: fc.record(
      {
        left: fc.integer({ min: 0, max: 500 }),
        top: fc.integer({ min: 0, max: 500 }),
        unit: fc.constantFrom('pt', 'cm', 'mm', 'in', 'px', 'emu'),
        fill_color: colour,
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['name'] },
);

const tags = fc.array(fc.record({ key: fc.constantFrom('company', 'quarter', 'x'), value: edgeString }), {
  maxLength: 3,
});

const slide = fc.record(
  {
    slide_index: fc.integer({ min: 0, max: 1 }),
    shapes: fc.array(shape, { maxLength: 3 }),
    notes: fc.oneof(edgeString, fc.array(run, { maxLength: 2 })),
    tags,
  },
  { requiredKeys: ['slide_index'] },
);

/** A valid `presentation` object naming `templateName` (one to four slides). */
function validPresentation(templateName: string): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(
    {
      template: fc.constant(templateName),
      export_version: fc.constantFrom('Pptx2010', 'pptx2013', 'Pptx2019'),
      resultFileName: edgeString,
      slides: fc.array(slide, { minLength: 1, maxLength: 4 }),
      tags,
      tag_validation_mode: fc.constantFrom('strict', 'lenient'),
      shape_validation_mode: fc.constantFrom('lenient'),
    },
    { requiredKeys: ['template', 'slides'] },
  );
}

/** One change to a document: a node replaced by anything, a key deleted, a key added, a key renamed. */
type Corruption = { at: number; how: 'replace' | 'delete' | 'add' | 'rename'; value: unknown; key: string };

const KEYS = [
  'text',
  'data_cells',
  'filename',
  'template_name',
  'Key',
  'slide_id',
  'type',
  'shapeId',
  'remove',
];

const corruption: fc.Arbitrary<Corruption> = fc.record({
  at: fc.nat(),
  how: fc.constantFrom<Corruption['how']>('replace', 'replace', 'delete', 'add', 'rename'),
  value: wildValue,
  key: fc.oneof(fc.constantFrom(...KEYS), edgeString),
});

/** Applies `changes` to a copy of `doc`, each at the node numbered `at` (modulo the node count, pre-order). */
function corrupt(doc: unknown, changes: Corruption[]): unknown {
  const root = { doc: structuredClone(doc) as unknown };
  for (const change of changes) {
    // Every (holder, key) slot in pre-order, without recursion: a value may be nested thousands deep.
    const slots: [Record<string, unknown> | unknown[], string | number][] = [];
    const pending: [Record<string, unknown> | unknown[], string | number][] = [[root, 'doc']];
    for (let slot = pending.pop(); slot !== undefined; slot = pending.pop()) {
      slots.push(slot);
      const value = (slot[0] as Record<string | number, unknown>)[slot[1]];
      const children: [Record<string, unknown> | unknown[], string | number][] = Array.isArray(value)
        ? value.map((_, i) => [value, i])
        : value !== null && typeof value === 'object'
          ? Object.keys(value).map((k) => [value as Record<string, unknown>, k])
          : [];
      pending.push(...children.reverse());
    }
    const [holder, key] = slots[change.at % slots.length] ?? [root, 'doc'];
    const target = holder as Record<string | number, unknown>;
    const value = target[key];
    if (change.how === 'replace' || holder === root) target[key] = change.value;
    else if (change.how === 'delete') {
      if (Array.isArray(holder)) holder.splice(key as number, 1);
      else delete target[key];
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const object = value as Record<string, unknown>;
      const first = Object.keys(object)[0];
      if (change.how === 'add' || first === undefined) object[change.key] = change.value;
      else {
        object[change.key] = object[first];
        delete object[first];
      }
    } else target[key] = change.value;
  }
  return root.doc;
}

/** A `presentation` object: valid, or valid with a few corruptions (about half of the cases). */
export function presentation(templateName: string): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(validPresentation(templateName), fc.array(corruption, { maxLength: 3 }), fc.boolean())
    .map(([valid, changes, keep]) => (keep ? valid : (corrupt(valid, changes) as Record<string, unknown>)));
}

/** A whole `jsonData` value: the envelope, the fields at the root, or something else entirely. */
export function jsonData(templateName: string): fc.Arbitrary<unknown> {
  const body = presentation(templateName);
  return fc.oneof(
    { weight: 6, arbitrary: body.map((p) => ({ presentation: p })) },
    { weight: 2, arbitrary: body },
    { weight: 1, arbitrary: fc.tuple(body, wildValue).map(([p, extra]) => ({ presentation: p, extra })) },
    { weight: 1, arbitrary: wildValue },
  );
}

/**
 * A generated document as JSON text. One nested too deep for JSON.stringify itself (the generator's call stack,
 * not the service's) is written as its opening brackets: the text a client would send for it.
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return `{"presentation":${'['.repeat(200_000)}`;
  }
}
