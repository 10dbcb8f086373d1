/**
 * The command line's ways into the renderer follow no link either (docs/security.md, "Rendering untrusted
 * decks"): `generate -o out.pdf`, `generate --previews DIR` and `deckforge render`, run through the built bin,
 * on a template whose slides carry a picture linked to a canary web server on loopback. The canary sees no
 * request. Each command starts and stops its own LibreOffice.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt } from '../support/servers/build-once.js';
import { CLI_PATH, REPO_ROOT } from '../support/servers/http-harness-paths.js';
import { readPdf } from '../support/readers/preview-files.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { describeWithLibreOffice } from '../support/servers/libreoffice.js';
import { withLinkedPicture } from '../support/decks/linking-decks.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'deckforge-cli-render-isolation-'));
const requests: string[] = [];
let canary: Server;
let template: Uint8Array;

beforeAll(async () => {
  canary = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'image/png' }).end();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  const address = canary.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/cli.png`;
  template = withLinkedPicture(
    new Uint8Array(readFileSync(join(REPO_ROOT, 'examples', 'sample-template.pptx'))),
    url,
  );
  writeFileSync(join(dir, 'linked.pptx'), template);
  writeFileSync(
    join(dir, 'payload.json'),
    JSON.stringify({
      presentation: { template: 'linked.pptx', slides: [{ slide_index: 0 }, { slide_index: 1 }] },
    }),
  );
  await ensureBuilt();
}, 300_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await new Promise((resolve) => canary?.close(resolve));
});

async function deckforge(args: string[]): Promise<void> {
  await run(process.execPath, [CLI_PATH, ...args], { cwd: dir, env: process.env, timeout: 120_000 });
}

describeWithLibreOffice('the command line follows no link', () => {
  it('generate -o out.pdf, generate --previews DIR, and render DECK -o DECK.pdf --png DIR', async () => {
    await deckforge(['generate', 'linked.pptx', 'payload.json', '-o', 'out.pdf']);
    expect(readPdf(new Uint8Array(readFileSync(join(dir, 'out.pdf')))).pages).toBe(2);
    await deckforge(['generate', 'linked.pptx', 'payload.json', '-o', 'out.pptx', '--previews', 'previews']);
    expect(readdirSync(join(dir, 'previews')).sort()).toEqual(['slide-1.png', 'slide-2.png']);
    const deck = new Uint8Array(readFileSync(join(dir, 'out.pptx')));
    await expectValidPptx(deck, template);
    await deckforge(['render', 'out.pptx', '-o', 'rendered.pdf', '--png', 'pages']);
    expect(readPdf(new Uint8Array(readFileSync(join(dir, 'rendered.pdf')))).pages).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requests).toEqual([]);
  }, 360_000);
});
