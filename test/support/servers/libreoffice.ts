/**
 * Whether this machine can render previews: LibreOffice (soffice), Debian's python3-uno, poppler, and
 * bubblewrap able to make the renderers' sandbox (renderers start in nothing else unless the operator accepts
 * it by name: docs/security.md). Tests that need a real LibreOffice declare themselves with
 * `describeWithLibreOffice`: without it they are reported skipped, with the reason in the suite's name, never
 * silently passed; under CI=true (`.ci/run`, which installs all of these) they fail instead.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
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

/** Why renderers cannot be sandboxed here (renderer-sandbox.ts), or null when they can. */
export const SANDBOX_MISSING = sandboxMissing();

/** Which of LibreOffice, python3-uno and poppler is missing here, or null. */
export const OFFICE_MISSING = missing();

/** Why previews cannot be made, and so not tested, here; null when they can. */
export const LIBREOFFICE_MISSING = OFFICE_MISSING ?? SANDBOX_MISSING;

/**
 * LibreOffice tests: skipped, with the reason in the name, where previews cannot be made; failing under CI=true,
 * where they must be (a skipped isolation test is a rule nobody checked).
 */
export const describeWithLibreOffice: (name: string, body: () => void) => void =
  LIBREOFFICE_MISSING === null
    ? describe
    : process.env.CI === 'true'
      ? (name) =>
          describe(name, () => {
            it('has LibreOffice, python3-uno, poppler and a working bubblewrap', () => {
              throw new Error(`previews cannot be made here (CI=true): ${LIBREOFFICE_MISSING}`);
            });
          })
      : (name) => describe.skip(`${name} [skipped: ${LIBREOFFICE_MISSING}]`, () => {});

/** Whether process `pid` still runs (a zombie waiting to be reaped counts as ended): no renderer may outlive its pool. */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
