/**
 * The command line's ways into the renderer give nothing of the machine away either (docs/security.md,
 * "Rendering untrusted decks"): `deckforge render DECK -o out.pdf --png DIR` and `deckforge generate TEMPLATE
 * PAYLOAD -o out.pdf`, run through the built bin on a deck that tries the tricks of render-tricks.ts (pictures
 * and playlists by file URL, lying relationship types, file URLs in every part kind, hostile hyperlinks, file
 * fields in a UTF-16 part and in a part not named .xml), with a secret planted in the folder beside the deck,
 * under the system temporary folder (where the command's renderer lives), and in the system's places. The
 * outputs are read as in test/http/render-secrets.test.ts; a file that is two archives is refused by `render`
 * before any LibreOffice starts. Each command starts and stops its own LibreOffice.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { previewDeck } from '../support/decks/preview-decks.js';
import * as trick from '../support/decks/render-tricks.js';
import { twoEndRecords } from '../support/decks/zip-polyglots.js';
import { BLUE, png } from '../support/decks/test-images.js';
import { pdfLeaks, pngLeaks } from '../support/readers/secret-leaks.js';
import { ensureBuilt } from '../support/servers/build-once.js';
import { CLI_PATH } from '../support/servers/http-harness-paths.js';
import { describeWithLibreOffice } from '../support/servers/libreoffice.js';
import { plantSecrets, SYSTEM_PLACES, type Planted } from '../support/servers/planted-secrets.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'deckforge-cli-render-secrets-'));
const requests: string[] = [];
let canary: Server;
let planted: Planted;
let paths: string[] = [];

beforeAll(async () => {
  canary = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'video/mp2t' }).end();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  const address = canary.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  planted = await plantSecrets({
    'the folder beside the deck': join(dir, 'private'),
    'the system temporary folder': tmpdir(),
    ...SYSTEM_PLACES,
  });
  paths = [join(dir, 'private'), ...planted.secrets.map((secret) => secret.folder)];
  const targets = { pictures: planted.secrets.map((secret) => secret.picture), canary: url };
  const deck = trick.withTricks(
    previewDeck(2),
    trick.svgNamedPng(targets),
    trick.playlistAsPicture(targets),
    trick.lyingRelationshipTypes(await png(40, 30, BLUE)),
    trick.fileUrlsEverywhere(targets),
    trick.hostileHyperlinks(planted.secrets[0]?.text as string),
    trick.fieldInUtf16Part,
    trick.fieldInPartNotNamedXml,
  );
  writeFileSync(join(dir, 'tricks.pptx'), deck);
  writeFileSync(join(dir, 'two-archives.pptx'), twoEndRecords(previewDeck(1), previewDeck(3)));
  writeFileSync(
    join(dir, 'payload.json'),
    JSON.stringify({
      presentation: { template: 'tricks.pptx', slides: [{ slide_index: 0 }, { slide_index: 1 }] },
    }),
  );
  await ensureBuilt();
}, 300_000);

afterAll(async () => {
  planted?.remove();
  rmSync(dir, { recursive: true, force: true });
  await new Promise((resolve) => canary?.close(resolve));
});

async function deckforge(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [CLI_PATH, ...args], { cwd: dir, env: process.env, timeout: 120_000 });
}

describeWithLibreOffice('the command line gives nothing of the machine away', () => {
  it('deckforge render DECK -o out.pdf --png DIR, and generate TEMPLATE PAYLOAD -o out.pdf', async () => {
    if (process.env.CI === 'true') expect(planted.missed).toEqual([]);
    await deckforge(['render', 'tricks.pptx', '-o', 'rendered.pdf', '--png', 'pages', '--width', '320']);
    await deckforge(['generate', 'tricks.pptx', 'payload.json', '-o', 'generated.pdf']);
    const problems: string[] = [];
    for (const pdf of ['rendered.pdf', 'generated.pdf']) {
      const found = await pdfLeaks(new Uint8Array(readFileSync(join(dir, pdf))), {
        allowedLinks: trick.KEPT_LINKS,
        paths: [...paths, dir],
      });
      problems.push(...found.map((problem) => `${pdf}: ${problem}`));
    }
    const pages = readdirSync(join(dir, 'pages')).sort();
    expect(pages).toEqual(['slide-1.png', 'slide-2.png']);
    for (const page of pages) {
      problems.push(...(await pngLeaks(new Uint8Array(readFileSync(join(dir, 'pages', page))), page)));
    }
    expect(problems).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requests).toEqual([]);
  }, 360_000);

  it('deckforge render refuses a file that is two archives, before any LibreOffice starts', async () => {
    mkdirSync(join(dir, 'refused'), { recursive: true });
    const failure = await deckforge(['render', 'two-archives.pptx', '-o', 'refused/out.pdf']).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(
      /the file is not one zip archive \(it has two end-of-central-directory records\)/,
    );
    expect(readdirSync(join(dir, 'refused'))).toEqual([]);
  }, 120_000);
});
