/**
 * Rendering untrusted decks (docs/security.md), with a real LibreOffice: a deck whose every slide reaches
 * outside in its own way (linking-decks.ts) renders with nothing followed — a canary web server on loopback sees
 * no request, the PDF holds neither the local picture nor the local file's words nor a server variable — while
 * every slide still renders and a clickable hyperlink stays a link. The renderer's processes carry none of the
 * server's variables and live in a network namespace of their own; a picture past the pixel budget is refused
 * before LibreOffice opens the deck. One pool of one renderer, one conversion for all the attack classes.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibreOfficeRendererPool } from '../../src/adapters/libreoffice/libreoffice-renderer-pool.js';
import { detectIsolation, sandboxed } from '../../src/adapters/libreoffice/renderer-sandbox.js';
import { RenderFailedError, type RenderResult } from '../../src/service/ports/renderer.js';
import { describeWithSandbox } from '../support/servers/libreoffice.js';
import { attacks, CLICKABLE_URL, linkingDeck, type LinkTargets } from '../support/decks/linking-decks.js';
import { previewDeck, slideWord } from '../support/decks/preview-decks.js';
import { editPackage } from '../support/decks/package-edit.js';
import { png, pngClaiming, BLUE, GREEN } from '../support/decks/test-images.js';

const root = mkdtempSync(join(tmpdir(), 'deckforge-render-isolation-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A variable of the server's, as a database URL or a key would be: no renderer may see it. */
const SECRET_VARIABLE = 'DECKFORGE_TEST_SERVER_SECRET';
const SECRET_VALUE = 'postgres://deckforge:SecretPassword4711@db.internal/deckforge';
/** The sizes pdfimages reports: the local picture must not be in the PDF; the embedded fallback may be. */
const LOCAL_IMAGE = { width: 123, height: 77 };
const FALLBACK = { width: 40, height: 30 };
const LOCAL_WORDS = 'LocalFileSecretWords';
/** What a renderer's environment may hold (renderer-sandbox.ts), and what the shell and LibreOffice's launcher add. */
const ALLOWED_VARIABLES = new Set([
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'SAL_USE_VCLPLUGIN',
  'PWD',
  'OLDPWD',
  'SAL_ENABLE_FILE_LOCKING',
]);

let folders = 0;
function outputDir(): string {
  const dir = join(root, `out-${++folders}`);
  mkdirSync(dir);
  return dir;
}

function pdfText(pdf: string): string[] {
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', pdf, '-']).toString().split('\f');
}

/** `pdfimages -list`: the pixel size of every image the PDF holds. */
function pdfImageSizes(pdf: string): { width: number; height: number }[] {
  return execFileSync('pdfimages', ['-list', pdf])
    .toString()
    .split('\n')
    .slice(2)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length > 4)
    .map((fields) => ({ width: Number(fields[3]), height: Number(fields[4]) }));
}

function environOf(pid: number): Map<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .filter(Boolean)
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);
  return new Map(entries);
}

describeWithSandbox('rendering untrusted decks', () => {
  let canary: Server;
  const requests: string[] = [];
  let pool: LibreOfficeRendererPool;
  let targets: LinkTargets;

  beforeAll(async () => {
    canary = createHttpServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'image/png' }).end();
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    const address = canary.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    targets = {
      canary: `http://127.0.0.1:${port}`,
      localImage: join(root, 'local.png'),
      localText: join(root, 'local.csv'),
      secretVariable: SECRET_VARIABLE,
    };
    writeFileSync(targets.localImage, await png(LOCAL_IMAGE.width, LOCAL_IMAGE.height, GREEN));
    writeFileSync(targets.localText, `${LOCAL_WORDS},1,2\n${LOCAL_WORDS},3,4\n`);
    process.env[SECRET_VARIABLE] = SECRET_VALUE;
    pool = new LibreOfficeRendererPool({
      size: 1,
      timeoutMs: 60_000,
      recycleAfter: 200,
      memoryCeilingMb: 4096,
      workDir: join(root, 'pool'),
      searchPath: process.env.PATH ?? '',
      python: null,
      isolation: 'required',
    });
    await pool.detected();
  });

  afterAll(async () => {
    delete process.env[SECRET_VARIABLE];
    await pool?.close();
    await new Promise((resolve) => canary?.close(resolve));
  });

  it('renders every slide of a deck that reaches out in every known way, following nothing', async () => {
    const deck = join(root, 'linking.pptx');
    writeFileSync(deck, linkingDeck(targets, await png(FALLBACK.width, FALLBACK.height, BLUE)));
    const names = Object.keys(attacks(targets));
    const result: RenderResult = await pool.render({
      accountId: 'a',
      deckFile: deck,
      outputDir: outputDir(),
      pdf: true,
    });
    const pdf = result.pdfFile as string;
    // Nothing was fetched: not while converting, nor a moment after.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requests).toEqual([]);
    // Every slide rendered (the attack classes in order, then the clickable link's slide).
    expect(result.pageCount).toBe(names.length + 1);
    const pages = pdfText(pdf);
    names.forEach((name, i) => expect(pages[i], name).toContain(slideWord(i)));
    const text = pages.join('\n');
    // The local file's words, a server variable, and the renderer's own paths are nowhere in the PDF.
    expect(text).not.toContain(LOCAL_WORDS);
    expect(text).not.toContain('SecretPassword4711');
    expect(text).not.toMatch(/deck\.pptx|\/tmp\/|deckforge-render/);
    const bytes = readFileSync(pdf).toString('latin1');
    expect(bytes).not.toContain('SecretPassword4711');
    expect(bytes).not.toContain(root);
    // The local picture was not read into the PDF; the clickable hyperlink is still a link.
    expect(pdfImageSizes(pdf)).not.toContainEqual(LOCAL_IMAGE);
    expect(bytes).toContain(CLICKABLE_URL);
  });

  it("runs LibreOffice and its bridge with none of the server's variables, in a network namespace of their own", async () => {
    const deck = join(root, 'plain.pptx');
    writeFileSync(deck, previewDeck(1));
    await pool.render({ accountId: 'a', deckFile: deck, outputDir: outputDir(), pdf: true });
    const pids = pool.pids();
    expect(pids.length).toBeGreaterThanOrEqual(3);
    expect(pool.status()).toMatchObject({ available: true, isolated: true });
    const ownNetwork = readlinkSync('/proc/self/ns/net');
    for (const pid of pids) {
      const environ = environOf(pid);
      expect(
        [...environ.keys()].filter((name) => !ALLOWED_VARIABLES.has(name)),
        `pid ${pid}`,
      ).toEqual([]);
      expect([...environ.values()].join('\n')).not.toContain('SecretPassword4711');
    }
    const office = pids.filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('soffice.bin'));
    expect(office).toHaveLength(1);
    expect(readlinkSync(`/proc/${office[0]}/ns/net`)).not.toBe(ownNetwork);
  });

  it('a renderer cannot open a TCP connection to a loopback port the test listens on', async () => {
    const accepted: string[] = [];
    const listener: TcpServer = createTcpServer((socket) => {
      accepted.push('connection');
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const address = listener.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const isolation = await detectIsolation(process.env.PATH ?? '');
    const dir = join(root, 'probe');
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    const connect = (sandbox: typeof isolation | null): Promise<number | null> => {
      const { command, args } = sandboxed(sandbox, { dir, poolDir: dir, readOnly: [] }, '/usr/bin/python3', [
        '-c',
        `import socket; socket.create_connection(("127.0.0.1", ${port}), timeout=5).close()`,
      ]);
      return new Promise((resolve) => spawn(command, args, { stdio: 'ignore' }).on('exit', resolve));
    };
    try {
      // The same program, started as a renderer is: refused; started plainly: connects (the port is open).
      expect(await connect(isolation)).not.toBe(0);
      expect(accepted).toEqual([]);
      expect(await connect(null)).toBe(0);
      expect(accepted).toEqual(['connection']);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it('a deck with a 20 000 × 20 000 picture is refused before LibreOffice opens it; the next deck renders', async () => {
    const deck = join(root, 'huge-picture.pptx');
    writeFileSync(
      deck,
      editPackage(previewDeck(1), (files) => {
        files['ppt/media/huge.png'] = pngClaiming(20_000, 20_000);
      }),
    );
    const before = pool.pids();
    const failure = await pool
      .render({ accountId: 'a', deckFile: deck, outputDir: outputDir(), pdf: true })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(RenderFailedError);
    expect((failure as Error).message).toBe(
      'LibreOffice could not convert the deck: /ppt/media/huge.png: the picture is 20000 × 20000 pixels, over the limit of 50,000,000 pixels for one image',
    );
    // LibreOffice never had it: the same renderer, untouched, renders the next deck.
    expect(pool.pids()).toEqual(before);
    const next = join(root, 'next.pptx');
    writeFileSync(next, previewDeck(2));
    const result = await pool.render({ accountId: 'a', deckFile: next, outputDir: outputDir(), pdf: true });
    expect(result.pageCount).toBe(2);
  });
});

describe('isolation policy', () => {
  it('DECKFORGE_RENDER_ISOLATION=required refuses to start renderers where bwrap cannot isolate them', async () => {
    // An empty PATH: no bwrap (nor LibreOffice) is found; a folder with soffice but no bwrap is what matters.
    const bin = join(root, 'bin-without-bwrap');
    mkdirSync(bin);
    for (const program of ['soffice', 'pdftoppm', 'pdfinfo', 'python3']) {
      writeFileSync(join(bin, program), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    }
    const pool = new LibreOfficeRendererPool({
      size: 1,
      timeoutMs: 10_000,
      recycleAfter: 200,
      memoryCeilingMb: 1024,
      workDir: join(root, 'policy-pool'),
      searchPath: bin,
      python: join(bin, 'python3'),
      isolation: 'required',
    });
    try {
      await pool.detected();
      const status = pool.status();
      expect(status).toMatchObject({ available: false, isolated: false });
      expect(status.reason).toMatch(
        /^renderers cannot be isolated here and DECKFORGE_RENDER_ISOLATION is required: bubblewrap \(bwrap\) is not installed/,
      );
      const deck = join(root, 'policy.pptx');
      writeFileSync(deck, previewDeck(1));
      await expect(
        pool.render({ accountId: 'a', deckFile: deck, outputDir: outputDir(), pdf: true }),
      ).rejects.toThrow(/DECKFORGE_RENDER_ISOLATION is required/);
      expect(pool.pids()).toEqual([]);
    } finally {
      await pool.close();
    }
  });
});
