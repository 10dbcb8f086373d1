/**
 * Whether this machine can render previews: LibreOffice (soffice), Debian's python3-uno and poppler. Tests that
 * need a real LibreOffice declare themselves with `describeWithLibreOffice`: without it they are reported
 * skipped, with the reason in the suite's name, never silently passed. `.ci/run` installs all three, so CI
 * never skips them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe } from 'vitest';
import { findExecutable } from '../../../src/rendering/render-tools.js';
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

/** Whether process `pid` still runs (a zombie waiting to be reaped counts as ended): no renderer may outlive its pool. */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
