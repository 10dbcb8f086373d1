/**
 * Whether this machine can render previews: LibreOffice (soffice), Debian's python3-uno and poppler. Tests that
 * need a real LibreOffice declare themselves with `describeWithLibreOffice`: without it they are reported
 * skipped, with the reason in the suite's name, never silently passed. `.ci/run` installs all three, so CI
 * never skips them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe } from 'vitest';
import { findExecutable } from '../../../src/adapters/libreoffice/render-tools.js';
import { assertRunningFromSource } from '../checks/source-guard.js';

assertRunningFromSource(import.meta.url);

function missing(): string | null {
  const path = process.env.PATH ?? '';
  if (!findExecutable('soffice', path)) return 'soffice (LibreOffice) is not installed';
  if (!findExecutable('pdftoppm', path) || !findExecutable('pdfinfo', path))
    return 'poppler-utils is not installed';
  const python = ['/usr/bin/python3', 'python3'].map((p) => findExecutable(p, path)).find(Boolean);
  if (!python || spawnSync(python, ['-c', 'import uno'], { timeout: 15_000 }).status !== 0)
    return 'python3-uno is not installed';
  return null;
}

/** Why previews cannot be tested here, or null when they can. */
export const LIBREOFFICE_MISSING = missing();

export const describeWithLibreOffice: (name: string, body: () => void) => void =
  LIBREOFFICE_MISSING === null
    ? describe
    : (name) => describe.skip(`${name} [skipped: ${LIBREOFFICE_MISSING}]`, () => {});

function sandboxMissing(): string | null {
  const bwrap = findExecutable('bwrap', process.env.PATH ?? '');
  if (!bwrap) return 'bubblewrap (bwrap) is not installed';
  const run = spawnSync(
    bwrap,
    [
      ...['--unshare-net', '--unshare-pid', '--unshare-ipc', '--die-with-parent'],
      ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'],
    ],
    { timeout: 15_000 },
  );
  return run.status === 0 ? null : `bwrap cannot create namespaces here (${run.stderr.toString().trim()})`;
}

/**
 * Why renderers cannot be sandboxed here (renderer-sandbox.ts), or null when they can. `.ci/run` installs
 * bubblewrap and checks that it works, so CI never skips the tests that need it.
 */
export const SANDBOX_MISSING = LIBREOFFICE_MISSING ?? sandboxMissing();

/** LibreOffice tests that also need the renderers' sandbox: skipped, with the reason in the name, without it. */
export const describeWithSandbox: (name: string, body: () => void) => void =
  SANDBOX_MISSING === null
    ? describe
    : (name) => describe.skip(`${name} [skipped: ${SANDBOX_MISSING}]`, () => {});

/** Whether process `pid` still runs (a zombie waiting to be reaped counts as ended): no renderer may outlive its pool. */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
