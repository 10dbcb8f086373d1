/**
 * Text as the payload gives it — a string, or runs `[{text_run, text_properties}]` — turned into paragraphs
 * (model.ts `TextContent`). `\n` starts a new paragraph (also `\r\n` and `\r`, which Windows clients send), and so
 * does a run with `new_line: true` unless it is the very first run (docs/payload.md "Text").
 */
import type { Paragraph, TextContent } from './model.js';
import { object, required } from './object-builder.js';
import { arrayOf, byJsonType, named, number, string, transform, type Spec } from './schema-builders.js';
import { noTextProperties, textPropertiesSpec, type SplitTextProperties } from './text-properties.js';
import { isTypedValue, TYPED_VALUE_EXPECTED, typedValueSpec } from './typed-value.js';

const LINE_BREAK = /\r\n|\r|\n/;

/** A plain string: one paragraph per line, no formatting of its own (the template's paragraph i is kept). */
export function plainTextContent(value: string): TextContent {
  if (value !== '' && !value.includes('\n') && !value.includes('\r')) {
    // The common case (a single line) without the intermediate arrays.
    return { kind: 'text', fromRuns: false, paragraphs: [{ props: {}, runs: [{ text: value, props: {} }] }] };
  }
  const lines = value.split(LINE_BREAK);
  const paragraphs: Paragraph[] = new Array<Paragraph>(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] as string;
    // An empty line is a paragraph without runs: it keeps the template's end-of-paragraph formatting rather
    // than carrying an empty run (text/fill-text.ts reads strings the same way).
    paragraphs[i] = { props: {}, runs: text === '' ? [] : [{ text, props: {} }] };
  }
  return { kind: 'text', fromRuns: false, paragraphs };
}

export type RunInput = SplitTextProperties;

/**
 * Each paragraph takes the paragraph properties of the runs that contribute text to it (a later run's keys win),
 * so `text_align` on any run of a line aligns that line.
 */
export function paragraphsFromRuns(runs: readonly RunInput[]): TextContent {
  let current: Paragraph = { props: {}, runs: [] };
  const paragraphs: Paragraph[] = [current];
  for (let r = 0; r < runs.length; r++) {
    const input = runs[r] as RunInput;
    if (input.newLine && r > 0) {
      current = { props: {}, runs: [] };
      paragraphs.push(current);
    }
    const lines =
      input.text.includes('\n') || input.text.includes('\r') ? input.text.split(LINE_BREAK) : [input.text];
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) {
        current = { props: {}, runs: [] };
        paragraphs.push(current);
      }
      if (input.paragraph !== null) Object.assign(current.props, input.paragraph);
      // Each piece gets its own props object: downstream code may adjust one run without touching its siblings.
      current.runs.push({ text: lines[i] as string, props: i === 0 ? input.run : { ...input.run } });
    }
  }
  return { kind: 'text', fromRuns: true, paragraphs };
}

/** A run's text: a string, or a typed value written in the deck's locale. */
const runTextSpec: Spec<string> = byJsonType('a string or a typed value {number|date, format}', {
  string: string(),
  object: transform(typedValueSpec, (typed) => typed.text),
});

const runSpec: Spec<RunInput> = named(
  'TextRun',
  object(
    'a run object {text_run, text_properties}',
    { text_run: required(runTextSpec), text_properties: textPropertiesSpec },
    (f) => {
      const run = f.text_properties ?? noTextProperties();
      run.text = f.text_run;
      return run;
    },
  ),
  'A chunk of text with its own formatting.',
);

export const RUNS_EXPECTED = 'an array of runs [{text_run, text_properties}]';

export const runsSpec: Spec<TextContent> = transform(
  arrayOf(runSpec, { expected: RUNS_EXPECTED }),
  paragraphsFromRuns,
);

/** One run object where an array is expected: taken as an array of one. */
export const singleRunSpec: Spec<TextContent> = transform(runSpec, (run) => paragraphsFromRuns([run]));

const plainTextSpec: Spec<TextContent> = transform(string(), plainTextContent);

/** A typed value where text goes: one paragraph with its text as the locale writes it. */
export const typedTextSpec: Spec<TextContent> = transform(typedValueSpec, (typed) =>
  plainTextContent(typed.text),
);

/** One object: a typed value when it has `number` or `date`, else a run. */
const textObjectSpec: Spec<TextContent> = {
  expected: `a run object {text_run, text_properties} or ${TYPED_VALUE_EXPECTED}`,
  parse: (value, ctx) =>
    isTypedValue(value) ? typedTextSpec.parse(value, ctx) : singleRunSpec.parse(value, ctx),
  toJsonSchema: (defs) => ({
    anyOf: [singleRunSpec.toJsonSchema(defs), typedValueSpec.toJsonSchema(defs)],
  }),
};

/** Text of a text shape (`text` alias), speaker notes and table cells: a string, runs or a typed value. */
export const textSpec: Spec<TextContent> = byJsonType(
  'a string, an array of runs [{text_run, text_properties}] or a typed value {number|date, format}',
  {
    string: plainTextSpec,
    array: runsSpec,
    object: textObjectSpec,
  },
);

/** A number where text is expected (table cells, tag values, category names), written as a person reads it. */
export const numberAsText: Spec<string> = transform(number(), formatNumber);

/** Significant digits a person is shown: Excel's 15, beyond which a double's digits are noise. */
const SIGNIFICANT_DIGITS = 15;

/**
 * A number as a spreadsheet would show it: at most 15 significant digits, so float noise goes
 * (0.1 + 0.2 → "0.3", not "0.30000000000000004"), and never in exponent notation, which nobody expects in a
 * table cell (1e21 → "1000000000000000000000", 1e-7 → "0.0000001"). -0 is "0".
 */
export function formatNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return n === 0 ? '0' : String(n);
  const precise = n.toPrecision(SIGNIFICANT_DIGITS);
  const e = precise.indexOf('e');
  if (e < 0) return trimFraction(precise);
  const sign = precise.startsWith('-') ? '-' : '';
  const digits = precise.slice(sign.length, e).replace('.', '').replace(/0+$/, '');
  const exponent = Number(precise.slice(e + 1));
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = exponent + 1;
  return digits.length <= whole
    ? `${sign}${digits}${'0'.repeat(whole - digits.length)}`
    : `${sign}${digits.slice(0, whole)}.${digits.slice(whole)}`;
}

/** "2.50000" → "2.5", "3.000" → "3". */
function trimFraction(fixed: string): string {
  if (!fixed.includes('.')) return fixed;
  const trimmed = fixed.replace(/0+$/, '').replace(/\.$/, '');
  return trimmed === '-0' ? '0' : trimmed;
}
