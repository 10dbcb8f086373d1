/**
 * Rendering untrusted decks (docs/security.md), with a real LibreOffice in its sandbox: a deck whose every slide
 * reaches outside in its own way (linking-decks.ts) renders with nothing followed; the renderer's processes carry
 * none of the server's variables and live in namespaces of their own; its file system is its view alone (planted
 * secrets elsewhere do not exist for it, LibreOffice's media player is /dev/null, GStreamer's plugins are
 * gone); it cannot reach a loopback port. Without the sandbox (DECKFORGE_RENDER_ISOLATION=unsandboxed-accept-risk,
 * and a PATH without bwrap), GStreamer still has no plugin: a playlist handed to LibreOffice unfiltered fetches
 * nothing. A PDF with more pages than the copy's visible slides is refused whatever the copy let through. One
 * sandboxed pool of one renderer for the file, and one unsandboxed pool for the two tests that need it.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibreOfficeRendererPool } from '../../../src/adapters/libreoffice/libreoffice-renderer-pool.js';
import { findExecutable, findUnoPython } from '../../../src/adapters/libreoffice/render-tools.js';
import { writeFontFolder } from '../../../src/adapters/libreoffice/fontconfig-file.js';
import { INSIDE, sandboxArguments } from '../../../src/adapters/libreoffice/renderer-sandbox.js';
import { rendererView, type RendererView } from '../../../src/adapters/libreoffice/renderer-view.js';
import { RenderFailedError, type RenderResult } from '../../../src/service/ports/renderer.js';
import { describeWithLibreOffice } from '../../support/servers/libreoffice.js';
import { attacks, CLICKABLE_URL, linkingDeck, type LinkTargets } from '../../support/decks/linking-decks.js';
import { previewDeck, slideWord } from '../../support/decks/preview-decks.js';
import { editPackage } from '../../support/decks/package-edit.js';
import {
  playlistAsPicture,
  secondSlideLists,
  svgNamedPng,
  withTricks,
} from '../../support/decks/render-tricks.js';
import { pdfLeaks } from '../../support/readers/secret-leaks.js';
import { png, pngClaiming, BLUE, GREEN } from '../../support/decks/test-images.js';
import { systemFont, withFamilyName } from '../../support/decks/test-fonts.js';
import {
  plantSecrets,
  SECRET_SIZE,
  SYSTEM_PLACES,
  type Planted,
} from '../../support/servers/planted-secrets.js';

const root = mkdtempSync(join(tmpdir(), 'deckforge-render-isolation-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A variable of the server's, as a database URL or a key would be: no renderer may see it. */
/** Carlito under a family this machine does not have. */
const PROBE_FONT = withFamilyName(systemFont('Carlito-Regular.ttf'), 'Deckforge Probe Sans');
const SECRET_VARIABLE = 'DECKFORGE_TEST_SERVER_SECRET';
const SECRET_VALUE = 'postgres://deckforge:SecretPassword4711@db.internal/deckforge';
/** The sizes pdfimages reports: the local picture must not be in the PDF; the embedded fallback may be. */
const LOCAL_IMAGE = { width: 123, height: 77 };
const FALLBACK = { width: 40, height: 30 };
const LOCAL_WORDS = 'LocalFileSecretWords';
/** What a renderer's environment may hold (renderer-sandbox.ts), and what its launcher and the shell add. */
const ALLOWED_VARIABLES = new Set([
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'SAL_USE_VCLPLUGIN',
  'SAL_ENABLE_FILE_LOCKING',
  'GST_PLUGIN_SYSTEM_PATH_1_0',
  'GST_PLUGIN_PATH_1_0',
  'GST_REGISTRY_1_0',
  // Set by LibreOffice's launcher (oosplash) for soffice.bin.
  'URE_BOOTSTRAP',
  'PWD',
  'OLDPWD',
]);
const PATH = process.env.PATH ?? '';

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

/** A web server on loopback that records every request: any request is a failure. */
async function startCanary(): Promise<{ server: Server; url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createHttpServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'video/mp2t' }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    server,
    requests,
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
  };
}

/** The view the pool gives its renderers here, made the way the pool makes it. */
async function viewHere(): Promise<{ view: RendererView; python: string }> {
  const python = await findUnoPython(PATH, null);
  if ('reason' in python) throw new Error(python.reason);
  const view = rendererView(findExecutable('soffice', PATH) as string, {
    executable: python.python,
    paths: python.paths,
  });
  if ('reason' in view) throw new Error(view.reason);
  return { view, python: python.python };
}

/** Runs `script` with the bridge's Python in a renderer's sandbox (its view, `work` as its work folder). */
async function inSandbox(script: string, work: string): Promise<string> {
  const { view, python } = await viewHere();
  const bwrap = findExecutable('bwrap', PATH) as string;
  const folders = { profile: work, work, bridge: '/dev/null' };
  return execFileSync(bwrap, sandboxArguments(view, folders, python, ['-c', script]), {
    env: { PATH, LANG: 'C.UTF-8' },
  }).toString();
}

/** A Python function the sandbox probes use: whether a file can be made in folder `p`. */
const PYTHON_WRITABLE = `def writable(p):
    try:
        open(os.path.join(p, "probe"), "w").close()
        return True
    except OSError:
        return False`;

describeWithLibreOffice('rendering untrusted decks', () => {
  let canary: Awaited<ReturnType<typeof startCanary>>;
  let pool: LibreOfficeRendererPool;
  let targets: LinkTargets;

  beforeAll(async () => {
    canary = await startCanary();
    targets = {
      canary: canary.url,
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
      searchPath: PATH,
      python: null,
      isolation: 'required',
    });
    await pool.detected();
  });

  afterAll(async () => {
    delete process.env[SECRET_VARIABLE];
    await pool?.close();
    await new Promise((resolve) => canary?.server.close(resolve));
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
    expect(canary.requests).toEqual([]);
    // Every slide rendered (the attack classes in order, then the clickable link's slide).
    expect(result.pageCount).toBe(names.length + 1);
    const pages = pdfText(pdf);
    names.forEach((name, i) => expect(pages[i], name).toContain(slideWord(i)));
    const text = pages.join('\n');
    // The local file's words, a server variable, and the renderer's own paths are nowhere in the PDF.
    expect(text).not.toContain(LOCAL_WORDS);
    expect(text).not.toContain('SecretPassword4711');
    expect(text).not.toMatch(/deck\.pptx|\/tmp\/|deckforge-render|\/renderer\//);
    const bytes = readFileSync(pdf).toString('latin1');
    expect(bytes).not.toContain('SecretPassword4711');
    expect(bytes).not.toContain(root);
    // The local picture was not read into the PDF; the clickable hyperlink is still a link.
    expect(pdfImageSizes(pdf)).not.toContainEqual(LOCAL_IMAGE);
    expect(bytes).toContain(CLICKABLE_URL);
  });

  it("runs LibreOffice and its bridge with none of the server's variables, in namespaces of their own, GStreamer told of no plugin", async () => {
    const deck = join(root, 'plain.pptx');
    writeFileSync(deck, previewDeck(1));
    await pool.render({ accountId: 'a', deckFile: deck, outputDir: outputDir(), pdf: true });
    const pids = pool.pids();
    expect(pids.length).toBeGreaterThanOrEqual(3);
    expect(pool.status()).toMatchObject({ available: true, isolated: true, isolationPolicy: 'required' });
    const own = { net: readlinkSync('/proc/self/ns/net'), mnt: readlinkSync('/proc/self/ns/mnt') };
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
    expect(readlinkSync(`/proc/${office[0]}/ns/net`)).not.toBe(own.net);
    expect(readlinkSync(`/proc/${office[0]}/ns/mnt`)).not.toBe(own.mnt);
    expect(environOf(office[0] as number).get('GST_PLUGIN_SYSTEM_PATH_1_0')).toBe('');
  });

  describe('what the renderer can see', () => {
    let planted: Planted;
    beforeAll(async () => {
      // The pool's folder, another renderer's folder beside this one's, and the system's places.
      planted = await plantSecrets({
        "the pool's folder": join(root, 'pool'),
        "another renderer's folder": join(root, 'pool', 'deckforge-another-renderer'),
        'a data directory': join(root, 'data'),
        ...SYSTEM_PLACES,
      });
    });
    afterAll(() => planted?.remove());

    it('its view and nothing else: secrets planted elsewhere do not exist for it; LibreOffice, its libraries and fonts do', async () => {
      if (process.env.CI === 'true') expect(planted.missed).toEqual([]);
      const work = join(root, 'probe-work');
      mkdirSync(work, { recursive: true });
      const paths = planted.secrets.map((secret) => secret.picture);
      const { view } = await viewHere();
      const script = `
import json, os, stat
def kind(p):
    try:
        s = os.stat(p)
    except OSError:
        return None
    if stat.S_ISCHR(s.st_mode): return "device"
    return "folder:%d" % len(os.listdir(p)) if stat.S_ISDIR(s.st_mode) else "file:%d" % s.st_size
${PYTHON_WRITABLE}
paths = ${JSON.stringify(paths)}
print(json.dumps({
    "secrets": {p: kind(p) for p in paths},
    "office": kind(${JSON.stringify(view.office)}),
    "media": [kind(p) for p in ${JSON.stringify(view.nulled)}],
    "gstreamer": [kind(p) for p in ${JSON.stringify(view.emptied)}],
    "fonts": kind("/usr/share/fonts"),
    "tmp": [kind("/tmp"), writable("/tmp")],
    "root": writable("/"), "etc": writable("/etc"), "work": writable("/renderer/work"),
    "top": sorted(os.listdir("/")),
}))`;
      const seen = JSON.parse(await inSandbox(script, work)) as Record<string, unknown>;
      expect(seen.secrets).toEqual(Object.fromEntries(paths.map((path) => [path, null])));
      expect(seen.office).toMatch(/^file:\d+$/);
      expect(seen.fonts).toMatch(/^folder:[1-9]/);
      // The media backend: LibreOffice's GStreamer player is /dev/null, GStreamer's plugin folder empty.
      expect(view.nulled.length).toBeGreaterThan(0);
      expect(seen.media).toEqual(view.nulled.map(() => 'device'));
      expect(view.emptied.length).toBeGreaterThan(0);
      expect(seen.gstreamer).toEqual(view.emptied.map(() => 'folder:0'));
      expect(seen.tmp).toEqual(['folder:0', true]);
      expect({ root: seen.root, etc: seen.etc, work: seen.work }).toEqual({
        root: false,
        etc: false,
        work: true,
      });
      // Nothing at the top but the system's, its own /renderer, /dev, /proc and /tmp.
      for (const folder of ['home', 'root', 'srv', 'opt', 'work', 'mnt', 'media', 'boot']) {
        expect(seen.top, folder).not.toContain(folder);
      }
    });
  });

  it("a one-off renderer's fonts: read-only at /renderer/fonts, found by fontconfig through FONTCONFIG_FILE, cached in its own /tmp", async () => {
    const work = join(root, 'fonts-work');
    const fonts = join(root, 'fonts-folder');
    mkdirSync(work, { recursive: true });
    const font = { fileName: 'font-1.ttf', family: 'Deckforge Probe Sans', bytes: PROBE_FONT };
    const fontconfigFile = writeFontFolder(fonts, [font], { inside: INSIDE.fonts, cache: '/tmp/fontconfig' });
    const { view, python } = await viewHere();
    const script = `
import ctypes, json, os
fc = ctypes.CDLL("libfontconfig.so.1")
fc.FcNameParse.restype = ctypes.c_void_p
fc.FcFontMatch.restype = ctypes.c_void_p
fc.FcFontMatch.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
fc.FcConfigSubstitute.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
fc.FcDefaultSubstitute.argtypes = [ctypes.c_void_p]
fc.FcPatternGetString.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
pattern = fc.FcNameParse(b"Deckforge Probe Sans")
fc.FcConfigSubstitute(None, pattern, 0)
fc.FcDefaultSubstitute(pattern)
result = ctypes.c_int()
match = fc.FcFontMatch(None, pattern, ctypes.byref(result))
family = ctypes.c_char_p()
fc.FcPatternGetString(match, b"family", 0, ctypes.byref(family))
${PYTHON_WRITABLE}
print(json.dumps({
    "family": family.value.decode(),
    "files": sorted(os.listdir("/renderer/fonts/files")),
    "writable": writable("/renderer/fonts"),
    "cache": len(os.listdir("/tmp/fontconfig")) > 0,
}))`;
    const bwrap = findExecutable('bwrap', PATH) as string;
    const folders = { profile: work, work, bridge: '/dev/null', fonts };
    const systemCache = readdirSync('/var/cache/fontconfig');
    const seen = JSON.parse(
      execFileSync(bwrap, sandboxArguments(view, folders, python, ['-c', script]), {
        env: { PATH, LANG: 'C.UTF-8', FONTCONFIG_FILE: fontconfigFile },
      }).toString(),
    ) as Record<string, unknown>;
    expect(seen).toEqual({
      family: 'Deckforge Probe Sans',
      files: ['font-1.ttf'],
      writable: false,
      cache: true,
    });
    expect(readdirSync('/var/cache/fontconfig')).toEqual(systemCache);
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
    const connect = `import socket; socket.create_connection(("127.0.0.1", ${port}), timeout=5).close()`;
    const dir = join(root, 'probe');
    mkdirSync(dir, { recursive: true });
    try {
      // The same program, started as a renderer is: refused; started plainly: connects (the port is open).
      await expect(inSandbox(connect, dir)).rejects.toThrow();
      expect(accepted).toEqual([]);
      const plain = await new Promise<number | null>((resolve) =>
        spawn('/usr/bin/python3', ['-c', connect], { stdio: 'ignore' }).on('exit', resolve),
      );
      expect(plain).toBe(0);
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

  describe('past the copy, unsandboxed (DECKFORGE_RENDER_ISOLATION=unsandboxed-accept-risk, no bwrap on PATH)', () => {
    let unfiltered: LibreOfficeRendererPool;
    let claimed = 0;
    beforeAll(async () => {
      // LibreOffice, poppler, fontconfig and Python, but no bwrap: the system "cannot" give the sandbox.
      const bin = join(root, 'bin-without-bwrap');
      mkdirSync(bin);
      for (const program of ['soffice', 'pdftoppm', 'pdfinfo', 'fc-list', 'fc-match']) {
        symlinkSync(findExecutable(program, PATH) as string, join(bin, program));
      }
      // The deck as it is, past the copy: what the second line (the renderer's own limits) has to hold.
      unfiltered = new LibreOfficeRendererPool({
        size: 1,
        timeoutMs: 60_000,
        recycleAfter: 200,
        memoryCeilingMb: 4096,
        workDir: join(root, 'unfiltered-pool'),
        searchPath: bin,
        python: '/usr/bin/python3',
        isolation: 'unsandboxed-accept-risk',
        safeCopy: (deck) =>
          Promise.resolve({
            bytes: deck,
            neutralised: 0,
            visibleSlides: claimed,
            requestedFonts: [],
            fonts: [],
            warnings: [],
          }),
      });
      await unfiltered.detected();
    });
    afterAll(async () => {
      await unfiltered?.close();
    });

    it('renders, saying in its status that it runs unsandboxed and why', () => {
      expect(unfiltered.status()).toMatchObject({
        available: true,
        isolated: false,
        isolationPolicy: 'unsandboxed-accept-risk',
        isolationReason: expect.stringMatching(/^bubblewrap \(bwrap\) is not installed/),
      });
    });

    it('GStreamer has no plugin: an HLS playlist behind a picture fetches nothing and draws none of its segments', async () => {
      const planted = await plantSecrets({ 'a data directory': join(root, 'unfiltered-data') });
      try {
        const deck = join(root, 'playlist.pptx');
        writeFileSync(
          deck,
          withTricks(
            previewDeck(1),
            playlistAsPicture(
              { pictures: [planted.secrets[0]?.picture as string], canary: canary.url },
              true,
            ),
          ),
        );
        claimed = 1;
        const result = await unfiltered.render({
          accountId: 'a',
          deckFile: deck,
          outputDir: outputDir(),
          pdf: true,
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(canary.requests).toEqual([]);
        expect(pdfImageSizes(result.pdfFile as string)).not.toContainEqual(SECRET_SIZE);
      } finally {
        planted.remove();
      }
    });

    it('the work folder holds the one deck: a file left in it is gone before LibreOffice opens the next deck', async () => {
      // A file in this renderer's work folder (what an earlier deck or a failed move could leave), named by an
      // SVG the copy would have dropped: LibreOffice, past the copy, would draw it were it still there.
      const first = join(root, 'first.pptx');
      writeFileSync(first, previewDeck(1));
      claimed = 1;
      await unfiltered.render({ accountId: 'a', deckFile: first, outputDir: outputDir(), pdf: true });
      const renderers = readdirSync(join(root, 'unfiltered-pool')).filter((name) =>
        name.startsWith('deckforge-'),
      );
      expect(renderers).toHaveLength(1);
      const work = join(root, 'unfiltered-pool', renderers[0] as string, 'work');
      const planted = await plantSecrets({ "this renderer's work folder": work });
      try {
        const left = planted.secrets[0]?.picture as string;
        const deck = join(root, 'left-in-work.pptx');
        writeFileSync(
          deck,
          withTricks(previewDeck(1), svgNamedPng({ pictures: [left], canary: canary.url })),
        );
        claimed = 1;
        const result = await unfiltered.render({
          accountId: 'a',
          deckFile: deck,
          outputDir: outputDir(),
          pdf: true,
        });
        expect(
          await pdfLeaks(new Uint8Array(readFileSync(result.pdfFile as string)), {
            allowedLinks: [],
            paths: [],
          }),
        ).toEqual([]);
      } finally {
        planted.remove();
      }
    });

    it('a PDF with more pages than the deck has visible slides is refused, not handed on to be charged', async () => {
      // Two slides, listed again in four more slide lists: LibreOffice makes a page of every entry.
      const deck = join(root, 'more-pages.pptx');
      writeFileSync(deck, withTricks(previewDeck(2), secondSlideLists(5)));
      claimed = 2;
      const dir = outputDir();
      const failure = await unfiltered
        .render({ accountId: 'a', deckFile: deck, outputDir: dir, pdf: true })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(RenderFailedError);
      expect((failure as Error).message).toMatch(
        /^LibreOffice drew \d+ pages for the deck's 2 visible slides; a render is made only when they agree/,
      );
      expect(Number(/drew (\d+) pages/.exec((failure as Error).message)?.[1])).toBeGreaterThan(2);
    });
  });
});

describe('isolation policy', () => {
  it('DECKFORGE_RENDER_ISOLATION=required refuses to start renderers where bwrap cannot isolate them', async () => {
    // A folder with soffice, poppler and a Python that answers the probe, but no bwrap.
    const bin = join(root, 'fake-bin-without-bwrap');
    mkdirSync(bin);
    for (const program of ['soffice', 'pdftoppm', 'pdfinfo']) {
      writeFileSync(join(bin, program), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    }
    writeFileSync(
      join(bin, 'python3'),
      `#!/bin/sh\necho '{"executable": "${join(bin, 'python3')}", "paths": []}'\n`,
      {
        mode: 0o755,
      },
    );
    const pool = new LibreOfficeRendererPool({
      size: 1,
      timeoutMs: 10_000,
      recycleAfter: 200,
      memoryCeilingMb: 1024,
      workDir: join(root, 'policy-pool'),
      searchPath: bin,
      python: join(bin, 'python3'),
    });
    try {
      await pool.detected();
      const status = pool.status();
      expect(status).toMatchObject({ available: false, isolated: false, isolationPolicy: 'required' });
      expect(status.reason).toMatch(
        /^renderers cannot be isolated here and DECKFORGE_RENDER_ISOLATION is required: bubblewrap \(bwrap\) is not installed.*unsandboxed-accept-risk/,
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

  it('finds the view from the soffice it runs, and says so where it cannot', () => {
    const stray = join(root, 'stray-soffice');
    writeFileSync(stray, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    expect(rendererView(stray, { executable: '/usr/bin/python3', paths: [] })).toEqual({
      reason: `LibreOffice's installation (program/soffice.bin and program/oosplash) was not found from ${stray}`,
    });
  });
});
