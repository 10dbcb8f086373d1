/**
 * Renders a .pptx through LibreOffice to PDF and reads each page's text back with pdftotext.
 * A LibreOffice render proves the content is there, not that PowerPoint opens the file without repair
 * (ooxml-notes.md §11, [pgj#1449]); use it sparingly, it costs a second or more per call.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

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

/** Runs a command in its own process group, killing the whole group on timeout (soffice forks soffice.bin). */
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

/** Text of each page of the rendered deck, in order (one string per slide). */
export async function renderToPdfText(bytes: Uint8Array): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'deckforge-render-'));
  try {
    const input = join(dir, 'deck.pptx');
    await writeFile(input, bytes);
    // A private profile per call: two soffice processes sharing one profile block or fail each other.
    const profile = pathToFileURL(join(dir, 'profile')).href;
    const convert = await run(
      'soffice',
      [
        `-env:UserInstallation=${profile}`,
        '--headless',
        '--norestore',
        '--convert-to',
        'pdf',
        '--outdir',
        dir,
        input,
      ],
      dir,
    );
    const pdf = join(dir, 'deck.pdf');
    // soffice exits 0 even when it wrote nothing, so the file is the only proof.
    if (!existsSync(pdf)) {
      throw new RenderError(
        `soffice wrote no PDF (exit ${convert.code}): ${convert.stdout.trim()}`,
        convert.stderr,
      );
    }
    const text = await run('pdftotext', ['-layout', '-enc', 'UTF-8', pdf, join(dir, 'deck.txt')], dir);
    if (text.code !== 0) throw new RenderError(`pdftotext failed (exit ${text.code})`, text.stderr);
    const pages = (await readFile(join(dir, 'deck.txt'), 'utf8')).split('\f');
    // pdftotext ends every page with a form feed, so the last element is the empty tail.
    if (pages.length > 0 && pages[pages.length - 1] === '') pages.pop();
    return pages;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
