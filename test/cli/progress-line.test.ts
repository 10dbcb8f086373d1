/**
 * `deckforge generate` and `deckforge render` show a progress line on a terminal and none when their output is
 * not one (docs/large-decks.md). The terminal is a real pseudo-terminal, made by util-linux `script`; the render
 * is a real LibreOffice's.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { ensureBuilt } from '../support/servers/build-once.js';
import { CLI_PATH, REPO_ROOT } from '../support/servers/http-harness-paths.js';
import { LIBREOFFICE_MISSING } from '../support/servers/libreoffice.js';

const run = promisify(execFile);
const SAMPLE = join(REPO_ROOT, 'examples', 'sample-template.pptx');
const SLIDES = 400;
const SCRIPT = '/usr/bin/script';
const describeWithScript = existsSync(SCRIPT) ? describe : describe.skip;

/** Single quotes for the shell `script -c` runs. */
const quoted = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

describeWithScript('the progress line of deckforge generate', () => {
  let dir: string;
  let payload: string;
  beforeAll(async () => {
    await ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'deckforge-progress-line-'));
    payload = join(dir, 'payload.json');
    const slides = Array.from({ length: SLIDES }, (_, i) => ({
      slide_index: 1,
      shapes: [{ name: 'Title', content: `Slide ${i + 1}` }],
    }));
    writeFileSync(payload, JSON.stringify({ presentation: { template: 'sample-template.pptx', slides } }));
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is drawn in place on a terminal and wiped before the result is printed', async () => {
    const out = join(dir, 'tty.pptx');
    const command = [process.execPath, CLI_PATH, 'generate', SAMPLE, payload, '-o', out]
      .map(quoted)
      .join(' ');
    const { stdout } = await run(SCRIPT, ['-qec', command, '/dev/null'], { cwd: dir, timeout: 240_000 });
    expect(stdout).toContain(`\r\u001b[Kgenerating: ${SLIDES} of ${SLIDES} slides (100 %)`);
    const wiped = stdout.lastIndexOf('\r\u001b[K');
    expect(stdout.slice(wiped)).toMatch(
      new RegExp(`^\\r\\u001b\\[Kwrote .*tty\\.pptx \\(${SLIDES} slides, `),
    );
    await expectValidPptx(new Uint8Array(readFileSync(out)), new Uint8Array(readFileSync(SAMPLE)));
  }, 300_000);

  it('is not written when the output is not a terminal', async () => {
    const out = join(dir, 'pipe.pptx');
    const { stdout, stderr } = await run(
      process.execPath,
      [CLI_PATH, 'generate', SAMPLE, payload, '-o', out],
      {
        cwd: dir,
        timeout: 240_000,
      },
    );
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^wrote .*pipe\.pptx \(400 slides, \d+ bytes\)\n$/);
    expect(stdout + stderr).not.toContain('generating');
    await expectValidPptx(new Uint8Array(readFileSync(out)), new Uint8Array(readFileSync(SAMPLE)));
  }, 300_000);
});

const describeWithRenderer = existsSync(SCRIPT) && LIBREOFFICE_MISSING === null ? describe : describe.skip;

describeWithRenderer('the progress line of deckforge render', () => {
  const PAGES = 25;
  let dir: string;
  let deck: string;
  beforeAll(async () => {
    await ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'deckforge-render-line-'));
    const payload = join(dir, 'payload.json');
    const slides = Array.from({ length: PAGES }, (_, i) => ({
      slide_index: 1,
      shapes: [{ name: 'Title', content: `Slide ${i + 1}` }],
    }));
    writeFileSync(payload, JSON.stringify({ presentation: { template: 'sample-template.pptx', slides } }));
    deck = join(dir, 'deck.pptx');
    await run(process.execPath, [CLI_PATH, 'generate', SAMPLE, payload, '-o', deck], {
      cwd: dir,
      timeout: 240_000,
    });
    await expectValidPptx(new Uint8Array(readFileSync(deck)), new Uint8Array(readFileSync(SAMPLE)));
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says it converts, then counts the pages drawn, and is wiped before the result is printed', async () => {
    const pngs = join(dir, 'tty');
    const command = [process.execPath, CLI_PATH, 'render', deck, '--png', pngs, '--width', '160', '-q']
      .map(quoted)
      .join(' ');
    const { stdout } = await run(SCRIPT, ['-qec', command, '/dev/null'], { cwd: dir, timeout: 240_000 });
    const converting = stdout.indexOf('\r\u001b[Krendering: converting with LibreOffice…');
    const drawn = stdout.indexOf(`\r\u001b[Krendering: ${PAGES} of ${PAGES} pages drawn (100 %)`);
    expect(converting).toBeGreaterThanOrEqual(0);
    expect(drawn).toBeGreaterThan(converting);
    const wiped = stdout.lastIndexOf('\r\u001b[K');
    expect(stdout.slice(wiped)).toMatch(new RegExp(`^\\r\\u001b\\[Kwrote ${PAGES} slide images to .*tty`));
  }, 300_000);

  it('is not written when the output is not a terminal', async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      [CLI_PATH, 'render', deck, '--png', join(dir, 'pipe'), '--width', '160'],
      { cwd: dir, timeout: 240_000 },
    );
    expect(stdout + stderr).not.toContain('rendering');
    expect(stdout).toMatch(/^wrote 25 slide images to .*pipe\n$/);
  }, 300_000);
});
