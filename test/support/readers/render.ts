/**
 * Renders a .pptx through LibreOffice to PDF and reads each page's text back with pdftotext, or its pixels with
 * pdftoppm. A LibreOffice render proves the content is there, not that PowerPoint opens the file without repair
 * (docs/powerpoint-rules.md "How the tests check these rules").
 *
 * The LibreOffice is the service's own renderer (one warm renderer per test process, started on first use):
 * starting LibreOffice costs seconds of CPU, most of a small deck's cold `soffice --convert-to pdf`.
 * test/adapters/libreoffice/renderer-fidelity.test.ts holds the warm renderer to what a cold soffice draws, page by page. Like
 * the service, it converts the deck's render-safe copy (docs/security.md, "Rendering untrusted decks").
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LibreOfficeRendererPool } from '../../../src/adapters/libreoffice/libreoffice-renderer-pool.js';

const TIMEOUT_MS = 120_000;

export class RenderError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'RenderError';
  }
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command (poppler's) in its own process group, killing the whole group on timeout. */
function run(command: string, args: string[], cwd: string): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      reject(
        new RenderError(`${command} timed out after ${TIMEOUT_MS / 1000} s`, Buffer.concat(err).toString()),
      );
    }, TIMEOUT_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() });
    });
  });
}

/** The PDF LibreOffice makes of the deck. */
export async function renderToPdf(bytes: Uint8Array): Promise<Uint8Array> {
  return withPdf(bytes, async (pdf) => new Uint8Array(await readFile(pdf)));
}

/** Text of each page of the rendered deck, in order (one string per slide). */
export async function renderToPdfText(bytes: Uint8Array): Promise<string[]> {
  return withPdf(bytes, async (pdf, dir) => {
    const text = await run('pdftotext', ['-layout', '-enc', 'UTF-8', pdf, join(dir, 'deck.txt')], dir);
    if (text.code !== 0) throw new RenderError(`pdftotext failed (exit ${text.code})`, text.stderr);
    const pages = (await readFile(join(dir, 'deck.txt'), 'utf8')).split('\f');
    // pdftotext ends every page with a form feed, so the last element is the empty tail.
    if (pages.length > 0 && pages[pages.length - 1] === '') pages.pop();
    return pages;
  });
}

/** Each page of the rendered deck as a PNG at `dpi` (pdftoppm), in order: for pixel checks. */
export async function renderToPngs(bytes: Uint8Array, dpi = 50): Promise<Uint8Array[]> {
  return withPdf(bytes, async (pdf, dir) => {
    const pages = await run('pdftoppm', ['-png', '-r', String(dpi), pdf, join(dir, 'page')], dir);
    if (pages.code !== 0) throw new RenderError(`pdftoppm failed (exit ${pages.code})`, pages.stderr);
    const names = (await readdir(dir)).filter((n) => /^page-\d+\.png$/.test(n));
    names.sort((a, b) => Number(/\d+/.exec(a)?.[0]) - Number(/\d+/.exec(b)?.[0]));
    return Promise.all(names.map(async (n) => new Uint8Array(await readFile(join(dir, n)))));
  });
}

export interface PdfWord {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

export interface PdfPage {
  width: number;
  height: number;
  /** In reading order, with their boxes in points from the page's top left. */
  words: PdfWord[];
}

/** Every word of each page with its box (`pdftotext -bbox`): where things landed, e.g. below the page's edge. */
export async function renderToPdfWords(bytes: Uint8Array): Promise<PdfPage[]> {
  return withPdf(bytes, async (pdf, dir) => {
    const out = join(dir, 'deck.html');
    const text = await run('pdftotext', ['-bbox', '-enc', 'UTF-8', pdf, out], dir);
    if (text.code !== 0) throw new RenderError(`pdftotext failed (exit ${text.code})`, text.stderr);
    const html = await readFile(out, 'utf8');
    return [...html.matchAll(/<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g)].map((page) => ({
      width: Number(page[1]),
      height: Number(page[2]),
      words: [
        ...(page[3] ?? '').matchAll(
          /<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g,
        ),
      ].map((w) => ({
        text: decodeHtml(w[5] ?? ''),
        xMin: Number(w[1]),
        yMin: Number(w[2]),
        xMax: Number(w[3]),
        yMax: Number(w[4]),
      })),
    }));
  });
}

function decodeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_m, e: string) =>
    e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
  );
}

let renderer: LibreOfficeRendererPool | undefined;

/** This process's renderer; it ends with the process (files share processes in the unit project). */
function warmRenderer(): LibreOfficeRendererPool {
  if (renderer) return renderer;
  const workDir = join(tmpdir(), `deckforge-test-renderer-${process.pid}`);
  const pool = new LibreOfficeRendererPool({
    size: 1,
    timeoutMs: TIMEOUT_MS,
    recycleAfter: 200,
    memoryCeilingMb: 4096,
    workDir,
    searchPath: process.env.PATH ?? '',
    python: null,
  });
  process.once('exit', () => {
    for (const pid of pool.pids()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already ended
      }
    }
    rmSync(workDir, { recursive: true, force: true });
  });
  renderer = pool;
  return pool;
}

/** Converts the deck to PDF in a fresh directory, hands the PDF to `read`, removes the directory. */
async function withPdf<T>(bytes: Uint8Array, read: (pdf: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'deckforge-render-'));
  try {
    const input = join(dir, 'deck.pptx');
    await writeFile(input, bytes);
    const outputDir = join(dir, 'out');
    await mkdir(outputDir);
    let pdf: string;
    try {
      const result = await warmRenderer().render({
        accountId: 'tests',
        deckFile: input,
        outputDir,
        pdf: true,
      });
      pdf = result.pdfFile ?? '';
    } catch (error) {
      throw new RenderError(`LibreOffice wrote no PDF: ${(error as Error).message}`, String(error));
    }
    if (!existsSync(pdf)) throw new RenderError('LibreOffice wrote no PDF', '');
    return await read(pdf, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
