/**
 * What the operating system holds a renderer to (docs/security.md, "Rendering untrusted decks"). A renderer (its
 * Python bridge and the LibreOffice the bridge starts) runs with an allow-listed environment, none of the
 * server's variables, inside one bubblewrap sandbox: namespaces of its own (a network with nothing but a loopback
 * nobody listens on, processes, IPC, hostname), and a file system made of the renderer view (renderer-view.ts)
 * read-only, its own /dev, /proc and /tmp, and two writable folders: LibreOffice's profile and the work folder
 * that holds the one deck being converted. A one-off renderer also sees, read-only, the folder of the fonts its
 * one deck embeds (fontconfig-file.ts). `--die-with-parent`: if the server dies, so does the sandbox.
 *
 * LibreOffice's media backend is unusable, inside the sandbox and out: GStreamer is told of no plugin folder (its
 * environment), and inside the sandbox its plugin folders are empty and LibreOffice's media player libraries are
 * /dev/null. LibreOffice then never plays, probes or fetches media, whatever a deck names.
 *
 * Without bubblewrap (or where the system forbids its namespaces) the server renders only when the operator
 * accepted that by name (DECKFORGE_RENDER_ISOLATION=unsandboxed-accept-risk); the environment and the media
 * backend are held the same way then, the file system and the network are not.
 */
import { join } from 'node:path';
import type { IsolationPolicy } from '../../config/render-settings.js';
import { findExecutable, runTool } from './render-tools.js';
import type { RendererView } from './renderer-view.js';

export type { IsolationPolicy };

export type Isolation = { bwrap: string; view: RendererView } | { reason: string };

/** Where a renderer's folders are inside its sandbox: names that say nothing of the server's disk. */
export const INSIDE = {
  profile: '/renderer/profile',
  work: '/renderer/work',
  bridge: '/renderer/uno-bridge.py',
  fonts: '/renderer/fonts',
} as const;

const NAMESPACES = [
  '--unshare-net',
  '--unshare-pid',
  '--unshare-ipc',
  '--unshare-uts',
  '--unshare-cgroup-try',
  '--unshare-user-try',
  '--die-with-parent',
];
const PROBE_TIMEOUT_MS = 15_000;

/** The folders of one renderer, on the server's disk. */
export interface SandboxFolders {
  /** LibreOffice's profile (written by LibreOffice). */
  profile: string;
  /** The work folder: the deck's copy and its PDF, nothing else (emptied before each deck). */
  work: string;
  /** The bridge script, shown read-only. */
  bridge: string;
  /** A one-off renderer's: the deck's fonts and the fontconfig file naming them, shown read-only (fontconfig-file.ts). */
  fonts?: string;
}

/** The bubblewrap arguments that make `view` and `folders` the whole file system of `command args`. */
export function sandboxArguments(
  view: RendererView,
  folders: SandboxFolders,
  command: string,
  args: string[],
): string[] {
  return [
    ...NAMESPACES,
    // Read-only: LibreOffice's installation, the system libraries, the bridge's Python, fonts and fontconfig.
    readOnly(view.readOnly.office),
    readOnly(view.readOnly.libraries),
    view.links.flatMap(([target, link]) => ['--symlink', target, link]),
    readOnly(view.readOnly.python),
    readOnly(view.readOnly.fonts),
    // LibreOffice's media backend, unusable: GStreamer's plugin folders empty, the media players /dev/null.
    view.emptied.flatMap((folder) => ['--tmpfs', folder]),
    view.nulled.flatMap((file) => ['--ro-bind', '/dev/null', file]),
    // Its own devices, processes and temporary files.
    ['--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'],
    // What it may write: LibreOffice's profile, and the work folder with the one deck.
    ['--bind', folders.profile, INSIDE.profile],
    ['--bind', folders.work, INSIDE.work],
    ['--ro-bind', folders.bridge, INSIDE.bridge],
    folders.fonts === undefined ? [] : ['--ro-bind', folders.fonts, INSIDE.fonts],
    // Nothing else is writable: the sandbox's root is read-only once the folders above are in place.
    ['--remount-ro', '/'],
    ['--chdir', INSIDE.work],
    command,
    ...args,
  ].flat();
}

function readOnly(paths: string[]): string[] {
  return paths.flatMap((path) => ['--ro-bind', path, path]);
}

/**
 * Whether bwrap runs here and gives a renderer its view: `python -c "import uno"` is tried once inside it (a
 * container without user namespaces, or without CAP_SYS_ADMIN for a root bwrap, refuses the namespaces; a view
 * that misses what the bridge loads fails the import).
 */
export async function detectIsolation(
  searchPath: string,
  view: RendererView | { reason: string },
  python: string,
  probeDir: string,
): Promise<Isolation> {
  const bwrap = findExecutable('bwrap', searchPath);
  if (!bwrap) return { reason: 'bubblewrap (bwrap) is not installed: install the bubblewrap package' };
  if ('reason' in view) return view;
  const folders = { profile: probeDir, work: probeDir, bridge: '/dev/null' };
  const probe = await runTool(bwrap, sandboxArguments(view, folders, python, ['-c', 'import uno']), {
    timeoutMs: PROBE_TIMEOUT_MS,
    env: minimalEnvironment(searchPath),
  }).catch((error: Error) => ({ code: null, stderr: error.message }));
  if (probe.code === 0) return { bwrap, view };
  const why = probe.stderr.trim().split('\n')[0] || `exit ${probe.code}`;
  return {
    reason: `bubblewrap cannot create the renderers' sandbox here (${why}): the container needs user namespaces, or --cap-add SYS_ADMIN and an unconfined seccomp/AppArmor profile`,
  };
}

/**
 * The whole environment of a renderer's processes: where programs are, a home (its profile), a UTF-8 locale, a
 * /tmp, LibreOffice's headless drawing, and GStreamer without any plugin. No variable of the server's (database
 * and Redis URLs, keys, secrets) is passed on.
 */
export function rendererEnvironment(
  searchPath: string,
  folders: { profile: string; tmp: string; fontconfigFile?: string },
): NodeJS.ProcessEnv {
  return {
    // A one-off renderer's fontconfig: the system's and the deck's fonts (fontconfig-file.ts).
    ...(folders.fontconfigFile === undefined ? {} : { FONTCONFIG_FILE: folders.fontconfigFile }),
    ...minimalEnvironment(searchPath),
    HOME: folders.profile,
    TMPDIR: folders.tmp,
    SAL_USE_VCLPLUGIN: 'svp',
    // What LibreOffice's `soffice` script sets before it starts oosplash, which the bridge starts directly.
    SAL_ENABLE_FILE_LOCKING: '1',
    // No folder to look for plugins in, and a registry of none: GStreamer can neither decode nor fetch anything.
    GST_PLUGIN_SYSTEM_PATH_1_0: '',
    GST_PLUGIN_PATH_1_0: '',
    GST_REGISTRY_1_0: join(folders.tmp, 'gstreamer-registry.bin'),
  };
}

/** For the short-lived tools (poppler, the probes): a PATH and a locale, nothing of the server's. */
export function minimalEnvironment(searchPath: string): NodeJS.ProcessEnv {
  return { PATH: searchPath, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' };
}
