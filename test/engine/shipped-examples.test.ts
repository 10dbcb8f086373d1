/**
 * The templates that ship in examples/ (written by examples/make-*-template.ts) are sound packages the validator
 * finds nothing wrong with, hold every shape the docs' examples name, of the kind the example needs, and are what
 * their scripts write today.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { inspect } from '../../src/engine/index.js';
import { checkPackageInvariants } from '../support/checks/package-invariants.js';
import { validatePptx } from '../support/checks/validator.js';

const run = promisify(execFile);
const EXAMPLES = new URL('../../examples/', import.meta.url);
const DECKS = readdirSync(EXAMPLES)
  .filter((name) => name.endsWith('.pptx'))
  .map((name) => [name, new Uint8Array(readFileSync(new URL(name, EXAMPLES)))] as const);

describe('the templates in examples/', () => {
  it('are the sample, the report, the brand and the process deck', () => {
    expect(DECKS.map(([name]) => name).sort()).toEqual([
      'brand.pptx',
      'process.pptx',
      'report.pptx',
      'sample-template.pptx',
    ]);
  });

  it('are what examples/make-*-template.ts write (run them again after changing one)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'deckforge-examples-'));
    try {
      const scripts = readdirSync(EXAMPLES).filter((name) => /^make-.*\.ts$/.test(name));
      expect(scripts.length).toBe(4);
      const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
      for (const script of scripts) await run(tsx, [fileURLToPath(new URL(script, EXAMPLES)), folder]);
      const written = readdirSync(folder).sort();
      expect(written).toEqual([
        'brand.pptx',
        'logo.png',
        'process.pptx',
        'report.pptx',
        'sample-template.pptx',
        'team.jpg',
      ]);
      const stale = written.filter(
        (name) => !readFileSync(join(folder, name)).equals(readFileSync(new URL(name, EXAMPLES))),
      );
      expect(stale).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);

  it.each(DECKS)(
    '%s is a sound package the validator finds nothing wrong with',
    async (_name, deck) => {
      expect(checkPackageInvariants(deck)).toEqual([]);
      expect(await validatePptx(deck)).toEqual([]);
    },
    60_000,
  );

  it('have every shape the docs name, of the kind its example needs', () => {
    const kinds = new Map(
      DECKS.flatMap(([template, deck]) =>
        inspect(deck).slides.flatMap((s) =>
          s.shapes.map((sh) => [`${template} ${sh.name}`, sh.chart?.types[0] ?? sh.kind]),
        ),
      ),
    );
    const expected = {
      'report.pptx Table 1': 'table',
      'report.pptx Chart 5': expect.stringMatching(/^bar/),
      'report.pptx Trial results': expect.stringMatching(/^scatter/),
      'report.pptx Market sizes': expect.stringMatching(/^bubble/),
      'report.pptx Orders': expect.stringMatching(/^line/),
      'report.pptx Scores': 'histogram',
      'report.pptx Trials': 'boxWhisker',
      'brand.pptx Logo': 'picture',
      'brand.pptx Hero photo': 'picture',
      'brand.pptx Badge': 'text',
      'process.pptx Diagram 1': 'smartart',
    };
    expect(Object.fromEntries(Object.keys(expected).map((key) => [key, kinds.get(key)]))).toEqual(expected);
  });
});
