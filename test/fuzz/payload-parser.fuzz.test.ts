/**
 * Property: whatever `jsonData` text arrives, the payload parser answers a DeckRequest or an
 * EngineError INVALID_PAYLOAD naming a JSON path, quickly, and never anything else (no TypeError, no stack
 * overflow). Cases: generated payloads (mostly well-formed, with wrong types, aliases, deep nesting, huge
 * strings, awkward unicode) and their text cut or corrupted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EngineError, parsePayload, parsePayloadText } from '../../src/engine/index.js';
import { fuzzParameters, fuzzTimeout, jsonData, jsonText } from './arbitraries.js';

const RUNS = 300;
const PER_CASE_MS = 5_000;

/** Runs `parse`; returns null on success, the error otherwise, and checks it is a well-formed refusal. */
function outcome(parse: () => unknown): EngineError | null {
  const started = performance.now();
  try {
    parse();
    return null;
  } catch (error) {
    if (!(error instanceof EngineError)) throw error; // the property's failure: a crash, not a refusal
    expect(error.code).toBe('INVALID_PAYLOAD');
    expect(error.message.length).toBeGreaterThan(10);
    return error;
  } finally {
    expect(performance.now() - started).toBeLessThan(PER_CASE_MS);
  }
}

const text = jsonData('layouts.pptx').map(jsonText);

/** The text damaged: cut short, a character replaced, brackets piled up. */
const damaged = fc.oneof(
  fc.tuple(text, fc.nat()).map(([t, at]) => t.slice(0, at % (t.length + 1))),
  fc
    .tuple(text, fc.nat(), fc.constantFrom('"', '{', ']', ',', '\\', '\u0000', '\ud800', ':'))
    .map(([t, at, ch]) => {
      const i = at % (t.length + 1);
      return t.slice(0, i) + ch + t.slice(i + 1);
    }),
  fc.integer({ min: 1, max: 200_000 }).map((n) => '['.repeat(n)),
  fc.integer({ min: 60, max: 70 }).map((n) => `{"presentation":${'['.repeat(n)}${']'.repeat(n)}}`),
);

describe('payload parser fuzz', () => {
  it(
    'generated jsonData: a request or a refusal naming a path',
    () => {
      fc.assert(
        fc.property(text, (t) => {
          const error = outcome(() => parsePayloadText(t));
          // Every refusal of a parsed document says where: in its path, or, listing several problems, in each
          // of them. Only a document that is not an object has no path.
          if (!error || error.path !== null) return;
          const several = /^(\d+) problems[^:]*: /.exec(error.message);
          if (!several) {
            expect(error.message).toMatch(/^expected a JSON object/);
            return;
          }
          const listed =
            error.message.match(/(?:^\d+ problems[^:]*: |; )\(\d+\) [A-Za-z_][\w.[\]]*: /g) ?? [];
          expect(listed.length, error.message).toBe(Number(several[1]));
        }),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, PER_CASE_MS),
  );

  it(
    'damaged jsonData text: a refusal with line and column, or the nesting limit',
    () => {
      fc.assert(
        fc.property(damaged, (t) => {
          outcome(() => parsePayloadText(t));
        }),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, PER_CASE_MS),
  );

  it(
    'already-parsed values (the engine API, JSON bodies): a request or a refusal',
    () => {
      fc.assert(
        fc.property(jsonData('layouts.pptx'), (value) => {
          outcome(() => parsePayload(value));
        }),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, PER_CASE_MS),
  );
});
