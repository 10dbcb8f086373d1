/**
 * What the operating system holds a renderer to (docs/security.md, "Rendering untrusted decks"). Each process
 * of a renderer (LibreOffice and its Python bridge) starts with an allow-listed environment, none of the
 * server's variables, and, where bubblewrap (`bwrap`) can make namespaces here, inside one: a network namespace
 * of its own with nothing but a loopback nobody listens on, its own process and IPC namespaces (it sees no
 * other process, so no other process's environment), a read-only view of the system, and write access to its
 * own folder alone, which is also its /tmp (where LibreOffice's pipe to the bridge lives). `--die-with-parent`:
 * if the server dies, so does the sandbox.
 */
import { join } from 'node:path';
import type { IsolationPolicy } from '../../config/render-settings.js';
import { findExecutable, runTool } from './render-tools.js';

export type { IsolationPolicy };

export type Isolation = { bwrap: string } | { reason: string };

const NAMESPACES = ['--unshare-net', '--unshare-pid', '--unshare-ipc', '--die-with-parent'];
const PROBE_TIMEOUT_MS = 15_000;

/**
 * Whether bwrap runs here with the namespaces a renderer gets (a container without user namespaces, or
 * without CAP_SYS_ADMIN for a root bwrap, refuses them): tried once, with `true`.
 */
export async function detectIsolation(searchPath: string): Promise<Isolation> {
  const bwrap = findExecutable('bwrap', searchPath);
  if (!bwrap) return { reason: 'bubblewrap (bwrap) is not installed: install the bubblewrap package' };
  const probe = await runTool(
    bwrap,
    [...NAMESPACES, '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'],
    { timeoutMs: PROBE_TIMEOUT_MS, env: minimalEnvironment(searchPath) },
  ).catch((error: Error) => ({ code: null, stderr: error.message }));
  if (probe.code === 0) return { bwrap };
  const why = probe.stderr.trim().split('\n')[0] || `exit ${probe.code}`;
  return {
    reason: `bubblewrap cannot create namespaces here (${why}): the container needs user namespaces, or --cap-add SYS_ADMIN and an unconfined seccomp/AppArmor profile`,
  };
}

/** The folders of one renderer: `dir` is its own (written), `readOnly` paths it also needs (the bridge script). */
export interface SandboxFolders {
  /** Everything the renderer may write: its profile, its scratch files, its /tmp (`dir`/tmp). */
  dir: string;
  /** The pool's folder: hidden inside (other renderers' decks), but for `readOnly`. */
  poolDir: string;
  readOnly: string[];
}

/** `command args` as started: inside bwrap when `isolation` has it, as they are otherwise. */
export function sandboxed(
  isolation: Isolation | null,
  folders: SandboxFolders,
  command: string,
  args: string[],
): { command: string; args: string[] } {
  if (!isolation || !('bwrap' in isolation)) return { command, args };
  return {
    command: isolation.bwrap,
    args: [
      ...NAMESPACES,
      ['--ro-bind', '/', '/'],
      ['--dev', '/dev', '--proc', '/proc'],
      // /tmp first: the folders below may lie under it, and must be bound over it, not hidden by it.
      ['--bind', join(folders.dir, 'tmp'), '/tmp'],
      ['--tmpfs', folders.poolDir],
      ['--bind', folders.dir, folders.dir],
      folders.readOnly.flatMap((path) => ['--ro-bind', path, path]),
      ['--chdir', folders.dir],
      command,
      ...args,
    ].flat(),
  };
}

/**
 * The whole environment of a renderer's processes: where programs are, a home (its profile), a UTF-8 locale, a
 * /tmp of its own, and LibreOffice's headless drawing. No variable of the server's (database and Redis URLs,
 * keys, secrets) is passed on.
 */
export function rendererEnvironment(searchPath: string, dir: string, isolated: boolean): NodeJS.ProcessEnv {
  return {
    ...minimalEnvironment(searchPath),
    HOME: join(dir, 'profile'),
    TMPDIR: isolated ? '/tmp' : join(dir, 'tmp'),
    SAL_USE_VCLPLUGIN: 'svp',
  };
}

/** For the short-lived tools (poppler, the probes): a PATH and a locale, nothing of the server's. */
export function minimalEnvironment(searchPath: string): NodeJS.ProcessEnv {
  return { PATH: searchPath, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' };
}
