/**
 * What bounds a renderer's life besides its conversions, with a real LibreOffice: its memory ceiling (it holds
 * during a conversion: a LibreOffice that passes it is stopped there, and replaced), and the life of the process
 * that owns the pool (a Node process killed with SIGKILL leaves no LibreOffice behind: the bridge, seeing its
 * stdin close, kills its LibreOffice's process group).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { LibreOfficeRendererPool } from '../../../src/adapters/libreoffice/libreoffice-renderer-pool.js';
import { RenderFailedError } from '../../../src/service/ports/renderer.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../../support/decks/layouts-template.js';
import { describeWithLibreOffice, running } from '../../support/servers/libreoffice.js';
import { previewDeck } from '../../support/decks/preview-decks.js';

const root = mkdtempSync(join(tmpdir(), 'deckforge-renderer-lifetime-'));
let folders = 0;
function outputDir(): string {
  const dir = join(root, `out-${++folders}`);
  mkdirSync(dir);
  return dir;
}

describeWithLibreOffice('renderer lifetime', () => {
  let deck: string;
  beforeAll(async () => {
    const bytes = previewDeck(2);
    await expectValidPptx(bytes, layoutsTemplate());
    deck = join(root, 'deck.pptx');
    writeFileSync(deck, bytes);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('a LibreOffice past the memory ceiling during a conversion is stopped there and replaced', async () => {
    const replaced: string[] = [];
    // 1 MB: every LibreOffice holds more, so each conversion passes it.
    const pool = new LibreOfficeRendererPool({
      size: 1,
      timeoutMs: 60_000,
      recycleAfter: 200,
      memoryCeilingMb: 1,
      workDir: join(root, 'pool'),
      searchPath: process.env.PATH ?? '',
      python: null,
      onReplace: (reason) => replaced.push(reason),
    });
    try {
      const stopped = /^the deck took LibreOffice past its memory ceiling of 1 MB \(\d+ MB\) and was stopped/;
      const first = pool.render({ accountId: 'a', deckFile: deck, outputDir: outputDir(), pdf: true });
      await expect(first).rejects.toBeInstanceOf(RenderFailedError);
      await expect(first).rejects.toThrow(stopped);
      expect(replaced).toHaveLength(1);
      expect(replaced[0]).toMatch(stopped);
      // Its successor is held to the same ceiling.
      const second = pool.render({ accountId: 'a', deckFile: deck, outputDir: outputDir(), pdf: true });
      await expect(second).rejects.toThrow(stopped);
      expect(replaced).toHaveLength(2);
    } finally {
      await pool.close();
    }
  });

  it('a Node process killed with SIGKILL leaves no LibreOffice running', async () => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
    const script = join(root, 'owner.mts');
    const poolModule = pathToFileURL(
      join(import.meta.dirname, '../../../src/adapters/libreoffice/libreoffice-renderer-pool.ts'),
    ).href;
    writeFileSync(
      script,
      `import { mkdirSync } from 'node:fs';
import { LibreOfficeRendererPool } from ${JSON.stringify(poolModule)};
const pool = new LibreOfficeRendererPool({ size: 1, timeoutMs: 60000, recycleAfter: 200, memoryCeilingMb: 4096,
  workDir: ${JSON.stringify(join(root, 'owner-pool'))}, searchPath: process.env.PATH ?? '', python: null });
mkdirSync(${JSON.stringify(join(root, 'owner-out'))});
await pool.render({ accountId: 'a', deckFile: ${JSON.stringify(deck)}, outputDir: ${JSON.stringify(join(root, 'owner-out'))}, pdf: true });
console.log(JSON.stringify(pool.pids()));
setInterval(() => {}, 1000);
`,
    );
    const owner = spawn(process.execPath, ['--import', tsx, script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const pids = await new Promise<number[]>((resolve, reject) => {
      let out = '';
      owner.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(JSON.parse(out) as number[]);
      });
      owner.on('exit', (code) => reject(new Error(`the owner exited (${code}) before rendering`)));
    });
    expect(pids.length).toBeGreaterThanOrEqual(3);
    expect(pids.every(running)).toBe(true);
    owner.kill('SIGKILL');
    await vi.waitFor(() => expect(pids.filter(running)).toEqual([]), { timeout: 15_000 });
  });
});
