/**
 * Property: whatever bytes arrive as a font to embed — a real font cut short, with bytes of its table directory,
 * its head, OS/2 or name table overwritten, with tables renamed, or plain noise behind a font signature — the
 * font reader answers a face or refuses the file with the reason (FontFileError), quickly, and never anything
 * else (no RangeError from a DataView read past the end, no TypeError, no hang). Through `generate`, the same
 * files are a deck or an EngineError INVALID_FONT naming the payload's field.
 */
import fc from 'fast-check';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { EngineError, generate } from '../../src/engine/index.js';
import { FontFileError, readFontFile } from '../../src/engine/fonts/font-file.js';
import { SAMPLE } from '../support/decks/deck.js';
import { systemFont, tables } from '../support/decks/test-fonts.js';
import { readEot } from '../support/readers/eot-reading.js';
import { fuzzParameters, fuzzTimeout } from './arbitraries.js';

const RUNS = 400;
const PER_CASE_MS = 2_000;

const SEEDS = [systemFont('LiberationSans-Regular.ttf'), systemFont('Carlito-BoldItalic.ttf')];

/** Offsets worth damaging: the directory, and the start of each table the reader reads. */
function hotSpots(font: Uint8Array): number[] {
  const spots = [0, 4, 12];
  for (const [tag, table] of tables(font)) {
    spots.push(table.offset, table.offset + 4, table.offset + 8);
    if (tag === 'name' || tag === 'OS/2' || tag === 'head')
      for (let i = 0; i < 96; i += 2) spots.push(table.offset + i);
  }
  for (let record = 12; record < 12 + 16 * tables(font).size; record += 4) spots.push(record);
  return spots;
}

const damaged: fc.Arbitrary<Uint8Array> = fc
  .tuple(
    fc.constantFrom(...SEEDS),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean()), {
      minLength: 1,
      maxLength: 12,
    }),
    fc.option(fc.nat(), { nil: undefined }),
  )
  .map(([seed, edits, cut]) => {
    const spots = hotSpots(seed);
    const bytes = seed.slice();
    for (const [where, value, anywhere] of edits) {
      const at = anywhere ? where % bytes.length : (spots[where % spots.length] ?? 0) % bytes.length;
      bytes[at] = value;
    }
    return cut === undefined ? bytes : bytes.subarray(0, cut % (bytes.length + 1));
  });

const noise: fc.Arbitrary<Uint8Array> = fc
  .tuple(
    fc.constantFrom([0, 1, 0, 0], [0x4f, 0x54, 0x54, 0x4f], [0x74, 0x72, 0x75, 0x65]),
    fc.uint8Array({ maxLength: 600 }),
  )
  .map(([signature, rest]) => new Uint8Array([...signature, ...rest]));

function readOutcome(bytes: Uint8Array): 'face' | 'refused' {
  const started = performance.now();
  try {
    const face = readFontFile(bytes);
    expect(typeof face.family).toBe('string');
    expect(face.family.length).toBeGreaterThan(0);
    return 'face';
  } catch (error) {
    if (!(error instanceof FontFileError)) throw error; // a crash, not a refusal: the property fails
    expect(error.message.length).toBeGreaterThan(10);
    return 'refused';
  } finally {
    expect(performance.now() - started).toBeLessThan(PER_CASE_MS);
  }
}

describe('reading hostile font files', () => {
  it(
    'answers a face or a refusal for damaged real fonts and for noise behind a font signature',
    () => {
      const seen = new Set<string>();
      fc.assert(
        fc.property(fc.oneof(damaged, noise), (bytes) => {
          seen.add(readOutcome(bytes));
        }),
        fuzzParameters(RUNS),
      );
      // Both ends are reached: damage the reader tolerates (a byte of a glyph) and damage it refuses.
      expect([...seen].sort()).toEqual(['face', 'refused']);
    },
    fuzzTimeout(RUNS, PER_CASE_MS),
  );

  it(
    'makes a deck or refuses the font naming presentation.fonts, when the damaged font is embedded',
    () => {
      fc.assert(
        fc.property(damaged, (bytes) => {
          try {
            const result = generate({
              files: new Map([
                ['template.pptx', SAMPLE],
                ['Brand.ttf', bytes],
              ]),
              payload: {
                presentation: {
                  template: 'template.pptx',
                  fonts: ['Brand.ttf'],
                  slides: [{ slide_index: 0 }],
                },
              },
            });
            // The font went in, unchanged, as the Embedded OpenType part's font data.
            const part = unzipSync(result.bytes)['ppt/fonts/font1.fntdata'];
            expect(part && Buffer.from(readEot(part).fontData).equals(Buffer.from(bytes))).toBe(true);
          } catch (error) {
            if (!(error instanceof EngineError)) throw error;
            expect(error.code).toBe('INVALID_FONT');
            expect(error.path).toBe('presentation.fonts[0]');
          }
        }),
        fuzzParameters(RUNS / 8),
      );
    },
    fuzzTimeout(RUNS / 8, PER_CASE_MS * 4),
  );
});
