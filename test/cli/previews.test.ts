/**
 * The command line's previews, run as a user runs them, through the built bin: `deckforge generate
 * -o out.pdf` (a PDF, by the extension), `--previews DIR` (one PNG per slide beside the deck), and `deckforge
 * render` (a deck made elsewhere to PDF and PNG). Each command starts and stops its own LibreOffice. Without
 * LibreOffice the rendering suite is reported skipped; the refusal on a PATH without soffice runs everywhere.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/servers/build-once.js';
import { CLI_PATH, REPO_ROOT } from '../support/servers/http-harness-paths.js';
import { expectedHeight, pngSize, readPdf } from '../support/readers/preview-files.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { describeWithLibreOffice } from '../support/servers/libreoffice.js';
import { previewDeck, slideWord } from '../support/decks/preview-decks.js';

const run = promisify(execFile);
const SAMPLE_PATH = join(REPO_ROOT, 'examples', 'sample-template.pptx');
const SAMPLE = new Uint8Array(readFileSync(SAMPLE_PATH));
const dir = mkdtempSync(join(tmpdir(), 'deckforge-cli-previews-'));

beforeAll(async () => {
  await ensureBuilt();
  writeFileSync(join(dir, 'sample-template.pptx'), SAMPLE);
  writeFileSync(
    join(dir, 'payload.json'),
    JSON.stringify({
      presentation: {
        template: 'sample-template.pptx',
        slides: [
          { slide_index: 0 },
          { slide_index: 1, shapes: [{ name: 'Title', content: 'Drawn by the command line' }] },
          { slide_index: 2 },
        ],
      },
    }),
  );
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function deckforge(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI_PATH, ...args], {
      cwd: dir,
      env,
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

function expectSlideImages(folder: string, count: number, width: number, deck: Uint8Array): void {
  expect(readdirSync(folder).sort()).toEqual(
    Array.from({ length: count }, (_, i) => `slide-${i + 1}.png`).sort(),
  );
  for (const name of readdirSync(folder)) {
    const png = pngSize(new Uint8Array(readFileSync(join(folder, name))));
    expect(png.width).toBe(width);
    expect(Math.abs(png.height - expectedHeight(deck, width))).toBeLessThanOrEqual(1);
  }
}

describeWithLibreOffice('deckforge generate and render with LibreOffice', () => {
  it('generate -o out.pdf writes the PDF (chosen by the extension) and no .pptx', async () => {
    const outcome = await deckforge(['generate', 'sample-template.pptx', 'payload.json', '-o', 'out.pdf']);
    expect(outcome.stderr).not.toMatch(/error/);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/wrote .*out\.pdf \(3 pages, \d+ bytes\)/);
    const pdf = readPdf(new Uint8Array(readFileSync(join(dir, 'out.pdf'))));
    expect(pdf.pages).toBe(3);
    expect(pdf.texts[1]).toContain('Drawn by the command line');
    expect(readdirSync(dir).filter((name) => name.endsWith('.pptx'))).toEqual(['sample-template.pptx']);
  }, 120_000);

  it('generate --previews DIR writes the deck and one PNG per slide at --preview-width', async () => {
    const outcome = await deckforge([
      'generate',
      'sample-template.pptx',
      'payload.json',
      '-o',
      'with-previews.pptx',
      '--previews',
      'previews',
      '--preview-width',
      '400',
    ]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/wrote 3 slide images to .*previews/);
    const deck = new Uint8Array(readFileSync(join(dir, 'with-previews.pptx')));
    await expectValidPptx(deck, SAMPLE);
    expectSlideImages(join(dir, 'previews'), 3, 400, deck);
  }, 120_000);

  it('render DECK -o DECK.pdf --png DIR: the visible slides as a PDF and as images', async () => {
    const deck = previewDeck(3, { hidden: [0] });
    writeFileSync(join(dir, 'elsewhere.pptx'), deck);
    const outcome = await deckforge([
      'render',
      'elsewhere.pptx',
      '-o',
      'elsewhere.pdf',
      '--png',
      'pages',
      '--width',
      '200',
    ]);
    expect(outcome.code).toBe(0);
    const pdf = readPdf(new Uint8Array(readFileSync(join(dir, 'elsewhere.pdf'))));
    expect(pdf.pages).toBe(2);
    expect(pdf.texts[1]).toContain(slideWord(2));
    expect(pdf.texts.join('\f')).not.toContain(slideWord(0));
    expectSlideImages(join(dir, 'pages'), 2, 200, deck);
  }, 120_000);
});

describe('deckforge render: what it refuses', () => {
  it('a file that is not a .pptx: exit 1 naming the problem', async () => {
    writeFileSync(join(dir, 'notes.pptx'), 'plain words');
    const outcome = await deckforge(['render', 'notes.pptx', '-o', 'notes.pdf']);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/^error: not a \.pptx file/);
    expect(existsSync(join(dir, 'notes.pdf'))).toBe(false);
  });

  it('no output asked for, or a width without --png: exit 2 with the usage', async () => {
    const none = await deckforge(['render', 'sample-template.pptx']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/-o OUT\.pdf, --png DIR, or both/);
    const width = await deckforge(['render', 'sample-template.pptx', '-o', 'x.pdf', '--width', '300']);
    expect(width.code).toBe(2);
    expect(width.stderr).toMatch(/--width sets the width of the --png images/);
  });

  it('on a machine without LibreOffice (no soffice on PATH): exit 1 saying so, nothing written', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'deckforge-empty-path-'));
    const env = { ...process.env, PATH: empty };
    const render = await deckforge(['render', 'sample-template.pptx', '-o', 'none.pdf'], env);
    expect(render.code).toBe(1);
    expect(render.stderr).toMatch(/^error: previews are unavailable here: .*soffice/);
    const generate = await deckforge(
      ['generate', 'sample-template.pptx', 'payload.json', '-o', 'none2.pdf'],
      env,
    );
    expect(generate.code).toBe(1);
    expect(generate.stderr).toMatch(/^error: previews are unavailable here: .*soffice/);
    expect(existsSync(join(dir, 'none.pdf')) || existsSync(join(dir, 'none2.pdf'))).toBe(false);
    rmSync(empty, { recursive: true, force: true });
  });
});
