/**
 * The programs previews need, found without rendering anything: LibreOffice (`soffice`), a Python that has its
 * UNO bindings (Debian's python3-uno), and poppler's `pdftoppm` and `pdfinfo`. Also the one way this folder runs
 * a short-lived tool: with a time limit and an abort signal, killed (its whole process group) when either ends it.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { setPriority } from 'node:os';

export interface RenderTools {
  soffice: string;
  python: string;
  pdftoppm: string;
  pdfinfo: string;
}

/** Debian's interpreter first: a Python on PATH (pyenv, a virtualenv) rarely has the uno module. */
const PYTHON_CANDIDATES = ['/usr/bin/python3', 'python3'];
const PROBE_TIMEOUT_MS = 15_000;

/** The executable `name` resolves to on `searchPath` (or `name` itself when it is a path), or null. */
export function findExecutable(name: string, searchPath: string): string | null {
  const candidates = isAbsolute(name) ? [name] : searchPath.split(delimiter).map((dir) => join(dir, name));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here: the next folder.
    }
  }
  return null;
}

export type ProgramSearch = { programs: Omit<RenderTools, 'python'> } | { reason: string };

/** Looks for LibreOffice and poppler on `searchPath` (a few stat calls: cheap enough for start-up). */
export function findRenderPrograms(searchPath: string): ProgramSearch {
  const soffice = findExecutable('soffice', searchPath);
  if (!soffice) {
    return {
      reason:
        'LibreOffice (soffice) is not installed or not on PATH: install it (Debian/Ubuntu: apt-get install ' +
        'libreoffice-impress python3-uno poppler-utils) to make PDF and PNG previews',
    };
  }
  const pdftoppm = findExecutable('pdftoppm', searchPath);
  const pdfinfo = findExecutable('pdfinfo', searchPath);
  if (!pdftoppm || !pdfinfo) {
    return {
      reason: "poppler's pdftoppm and pdfinfo are not installed or not on PATH: install poppler-utils",
    };
  }
  return { programs: { soffice, pdftoppm, pdfinfo } };
}

/** A Python with LibreOffice's UNO bindings, and the folders it loads modules from (a sandbox must show them). */
export interface UnoPython {
  python: string;
  paths: string[];
}

/**
 * Asked of the interpreter when it is tried: where it is and where its modules come from, the uno module's own
 * folder and pyuno's (Debian's links point into LibreOffice's program folder), and a virtual environment's
 * pyvenv.cfg (which makes it one).
 */
const PYTHON_PROBE =
  'import json, os, sys, uno, pyuno\n' +
  'paths = sys.path + [os.path.dirname(uno.__file__), os.path.dirname(os.path.realpath(pyuno.__file__))]\n' +
  'paths += [os.path.join(sys.prefix, "pyvenv.cfg")] if sys.prefix != sys.base_prefix else []\n' +
  'print(json.dumps({"executable": sys.executable, "paths": [p for p in paths if os.path.isabs(p)]}))';

/**
 * The interpreter that can `import uno` (a Python started to try: run in the background). `python`, when set
 * (DECKFORGE_RENDER_PYTHON), is the only one tried.
 */
export async function findUnoPython(
  searchPath: string,
  python: string | null,
): Promise<UnoPython | { reason: string }> {
  const tried: string[] = [];
  for (const candidate of python ? [python] : PYTHON_CANDIDATES) {
    const found = findExecutable(candidate, searchPath);
    if (!found) continue;
    tried.push(found);
    // The environment the bridge will have (rendererEnvironment): what imports here imports there.
    const probe = await runTool(found, ['-c', PYTHON_PROBE], {
      timeoutMs: PROBE_TIMEOUT_MS,
      env: { PATH: searchPath, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
    }).catch(() => null);
    if (probe?.code !== 0) continue;
    const answer = parseProbe(probe.stdout);
    if (answer) return { python: answer.executable, paths: answer.paths };
  }
  const where = tried.length ? ` (tried ${tried.join(', ')})` : '';
  return {
    reason:
      `no Python with LibreOffice's UNO bindings was found${where}: install python3-uno, or point ` +
      'DECKFORGE_RENDER_PYTHON at an interpreter that can "import uno"',
  };
}

function parseProbe(stdout: string): { executable: string; paths: string[] } | null {
  try {
    const answer = JSON.parse(stdout.trim().split('\n').pop() ?? '') as {
      executable?: unknown;
      paths?: unknown;
    };
    if (typeof answer.executable !== 'string' || !Array.isArray(answer.paths)) return null;
    return { executable: answer.executable, paths: answer.paths.filter((p) => typeof p === 'string') };
  } catch {
    return null;
  }
}

export interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export class ToolTimeoutError extends Error {
  override readonly name = 'ToolTimeoutError';
}
export class ToolAbortedError extends Error {
  override readonly name = 'ToolAbortedError';
}

/** Runs `command` to its end; rejects with ToolTimeoutError / ToolAbortedError after killing it. */
/**
 * The niceness of the renderer's tools (fc-list, fc-match, pdfinfo, pdftoppm): below the server's, so that
 * looking up a deck's fonts or drawing its pages yields the processor to other accounts' requests
 * (docs/security.md, "Nothing of one request blocks the others").
 */
const TOOL_PRIORITY = 5;

export function runTool(
  command: string,
  args: string[],
  /** `env`: the tool's whole environment (default: the server's, for tools that read no untrusted input). */
  options: { timeoutMs: number; signal?: AbortSignal; env?: NodeJS.ProcessEnv },
): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new ToolAbortedError(`${command} was not started: the request was withdrawn`));
      return;
    }
    const child = spawn(command, args, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.env ? { env: options.env } : {}),
    });
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, TOOL_PRIORITY);
      } catch {
        // Gone already, or not allowed here: it runs at the server's priority, still bounded by its time limit.
      }
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    let ended: Error | null = null;
    const stop = (error: Error): void => {
      ended ??= error;
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    };
    const timer = setTimeout(
      () => stop(new ToolTimeoutError(`${command} ran past ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const onAbort = (): void =>
      stop(new ToolAbortedError(`${command} was stopped: the request was withdrawn`));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    // It could not start (ENOENT, EACCES): no 'close' need follow.
    child.on('error', (error) => {
      settle();
      reject(error);
    });
    child.on('close', (code) => {
      settle();
      if (ended) reject(ended);
      else resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() });
    });
  });
}
