/**
 * The folder where a generation writes its deck while it is built: `<data dir>/tmp/<pid>-<random>`, one per
 * process (several processes may share a data directory), removed when the process closes. A folder left by a
 * process that no longer runs (a crash) is removed when the next one starts.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export interface ScratchDir {
  path: string;
  remove(): void;
}

export function createScratchDir(dataDir: string): ScratchDir {
  const root = join(dataDir, 'tmp');
  mkdirSync(root, { recursive: true });
  for (const name of readdirSync(root)) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (Number.isInteger(pid) && !running(pid)) rmSync(join(root, name), { recursive: true, force: true });
  }
  const path = join(root, `${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(path);
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
