/**
 * The brand from the command line (docs/payload.md "Brand"): a font file given beside the template plays the part
 * of an uploaded one, and `deckforge inspect` lists the masters and the layouts a payload's `masters` and
 * `layouts` count, with the shapes they can fill. Through the same entry point the bin uses.
 */
import { strFromU8, unzipSync } from 'fflate';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { masterLogoTemplate } from '../support/decks/master-logo-template.js';
import { systemFont } from '../support/decks/test-fonts.js';

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

let dir: string;
let templatePath: string;
let template: Uint8Array;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deckforge-cli-brand-'));
  template = await masterLogoTemplate();
  templatePath = join(dir, 'harbour.pptx');
  writeFileSync(templatePath, template);
});

describe('deckforge and the brand', () => {
  it('embeds a font file given on the command line and fills a master', async () => {
    const fontPath = join(dir, 'Brand-Regular.ttf');
    writeFileSync(fontPath, systemFont('Carlito-Regular.ttf'));
    const payload = join(dir, 'payload.json');
    writeFileSync(
      payload,
      JSON.stringify({
        presentation: {
          template: 'harbour.pptx',
          theme: { fonts: { minor: 'Carlito' }, colors: { accent1: '#005F73' } },
          fonts: ['Brand-Regular.ttf'],
          masters: [{ index: 0, shapes: [{ name: 'Footer Text', content: 'Acme Shipping' }] }],
          slides: [{ slide_index: 1 }],
        },
      }),
    );
    const out = join(dir, 'out.pptx');
    const run = await cli('generate', templatePath, fontPath, payload, '-o', out);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const deck = new Uint8Array(readFileSync(out));
    await expectValidPptx(deck, template);
    const files = unzipSync(deck);
    expect(strFromU8(files['ppt/presentation.xml']!)).toContain('<p:font typeface="Carlito"');
    expect(strFromU8(files['ppt/slideMasters/slideMaster1.xml']!)).toContain('Acme Shipping');
  });

  it('lists the masters, each with its shapes, and the master of each layout', async () => {
    const run = await cli('inspect', templatePath);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('layouts (for "type": "layout", by slide_index; for "layouts", by index):');
    expect(run.stdout).toContain(
      '  1: "Title and Content" (master 0)\n    #12 "Layout Badge" text "Harbour"',
    );
    expect(run.stdout).toContain('  4: "Title and Content" (master 1)');
    expect(run.stdout).toContain(
      'masters (for "masters", by index):\n  0: "Harbour Orange"\n    #2 "Title Placeholder 1" text placeholder=title',
    );
    expect(run.stdout).toContain('    #10 "Logo" picture frame=147x73px (aspect 2)');
    expect(run.stdout).toContain('    #11 "Footer Text" text tags={{company}} "{{company}}"');
    expect(run.stdout).toContain('  1: "Harbour Blue"');
    const json = JSON.parse((await cli('inspect', templatePath, '--json')).stdout) as {
      masters: { index: number; name: string }[];
    };
    expect(json.masters.map((m) => [m.index, m.name])).toEqual([
      [0, 'Harbour Orange'],
      [1, 'Harbour Blue'],
    ]);
  });
});
