/**
 * What a sandboxed renderer sees of this machine (docs/security.md, "What the renderer can see"), found once from
 * the programs it runs rather than from a list of where they usually are: LibreOffice's installation (the folder
 * the `soffice` on PATH lives in, wherever the operator installed it, with what its links and its bootstrap files
 * point at), the system libraries, the bridge's Python, fonts and fontconfig. Nothing else of the machine is in
 * the view: no data directory, scratch or pool folder, no /var, /home, /root, /srv, no other folder of /opt, no
 * configuration of the server's. LibreOffice's media backend is left out of it on purpose (renderer-sandbox.ts).
 */
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RendererView {
  /**
   * Host paths the renderer sees read-only, each at its own place, by what they are for (a path inside
   * another one of the view is left out: /usr/lib/libreoffice is in /usr/lib on Debian).
   */
  readOnly: {
    /** LibreOffice's installation folder, and what its links and bootstrap files name outside it. */
    office: string[];
    /** The system libraries, and the dynamic linker's cache. */
    libraries: string[];
    /** The bridge's interpreter and the folders its modules come from. */
    python: string[];
    /** Fonts, fontconfig's configuration and its cache. */
    fonts: string[];
  };
  /** [target, link]: the system's top-level links (`/lib` → `usr/lib` on a merged /usr), made again inside. */
  links: [string, string][];
  /** Folders the renderer sees empty: GStreamer's plugins. */
  emptied: string[];
  /** Files the renderer sees as /dev/null: LibreOffice's media players (libavmedia*.so). */
  nulled: string[];
  /** LibreOffice's launcher, as started (oosplash beside soffice.bin, which is what the `soffice` script runs). */
  office: string;
}

/** Folders of system libraries (merged /usr or not, multilib or not): bound when folders, made again when links. */
const LIBRARY_ROOTS = [
  '/usr/lib',
  '/usr/lib64',
  '/usr/lib32',
  '/usr/libx32',
  '/lib',
  '/lib64',
  '/lib32',
  '/libx32',
];
/** The dynamic linker's cache of where libraries are (a list of library paths, nothing of the server's). */
const LINKER_CACHE = '/etc/ld.so.cache';
/** Fonts and fontconfig: its configuration, the files it includes, and its cache. */
const FONT_PATHS = [
  '/etc/fonts',
  '/usr/share/fonts',
  '/usr/local/share/fonts',
  '/usr/share/fontconfig',
  '/var/cache/fontconfig',
];
/** LibreOffice's bootstrap files (program/*rc) name the configuration it reads outside its folder by file URL. */
const FILE_URL = /file:\/\/\/[^\s"'$;]+/g;

/**
 * LibreOffice's launcher and installation folder, from the `soffice` it would run: the folder above
 * `program/` (where soffice.bin and oosplash are), or null when `soffice` is not an installation's.
 */
export function officeInstallation(soffice: string): { office: string; root: string } | null {
  let program: string;
  try {
    program = dirname(realpathSync(soffice));
  } catch {
    return null;
  }
  const office = join(program, 'oosplash');
  if (!existsSync(office) || !existsSync(join(program, 'soffice.bin'))) return null;
  return { office, root: dirname(program) };
}

/**
 * The view of a renderer that runs the `soffice` and Python given (`pythonPaths`: the interpreter's module
 * folders, from render-tools.ts), or why none can be made.
 */
export function rendererView(
  soffice: string,
  python: { executable: string; paths: string[] },
): RendererView | { reason: string } {
  const installation = officeInstallation(soffice);
  if (!installation) {
    return {
      reason: `LibreOffice's installation (program/soffice.bin and program/oosplash) was not found from ${soffice}`,
    };
  }
  const program = join(installation.root, 'program');
  const libraries = LIBRARY_ROOTS.filter((path) => kindOf(path) === 'directory');
  const groups = {
    office: [installation.root, ...linksOutOf(installation.root), ...bootstrapFiles(program)],
    libraries: [...libraries, LINKER_CACHE],
    python: [python.executable, ...python.paths],
    fonts: [...FONT_PATHS, ...fontconfigIncludes()],
  };
  const kept = new Set(outermost(Object.values(groups).flat()));
  const only = (paths: string[]): string[] =>
    [...new Set(paths.map((p) => resolve(p)))].filter((p) => kept.has(p));
  const links = LIBRARY_ROOTS.filter((path) => kindOf(path) === 'link').map((path): [string, string] => [
    readlinkSync(path),
    path,
  ]);
  return {
    readOnly: {
      office: only(groups.office),
      libraries: only(groups.libraries),
      python: only(groups.python),
      fonts: only(groups.fonts),
    },
    links,
    emptied: gstreamerFolders(libraries),
    nulled: readdirSync(program)
      .filter((name) => /^libavmedia.*\.so/.test(name))
      .map((name) => join(program, name)),
    office: installation.office,
  };
}

function kindOf(path: string): 'directory' | 'link' | 'other' | null {
  try {
    const stat = lstatSync(path);
    return stat.isSymbolicLink() ? 'link' : stat.isDirectory() ? 'directory' : 'other';
  } catch {
    return null;
  }
}

/** Where the links inside `root` lead outside it (Debian's LibreOffice links into /etc, /usr/share and /var). */
function linksOutOf(root: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isSymbolicLink()) continue;
    try {
      const target = realpathSync(join(entry.parentPath ?? entry.path, entry.name));
      if (!inside(target, root)) found.push(target);
    } catch {
      // A dangling link: nothing to show.
    }
  }
  return found;
}

/** The files and folders LibreOffice's bootstrap files name by file URL (Debian: /etc/libreoffice/…). */
function bootstrapFiles(program: string): string[] {
  return readdirSync(program)
    .filter((name) => name.endsWith('rc'))
    .flatMap((name) => readFileSync(join(program, name), 'utf8').match(FILE_URL) ?? [])
    .map((url) => fileURLToPath(url));
}

/** The folders fontconfig's configuration links to (conf.d/* → …/conf.avail on Debian). */
function fontconfigIncludes(): string[] {
  const confD = '/etc/fonts/conf.d';
  if (kindOf(confD) !== 'directory') return [];
  return readdirSync(confD).flatMap((name) => {
    try {
      return [dirname(realpathSync(join(confD, name)))];
    } catch {
      return [];
    }
  });
}

/** GStreamer's plugin folders under the system libraries (`<lib>/gstreamer-1.0`, `<lib>/<triplet>/gstreamer-1.0`). */
function gstreamerFolders(libraries: string[]): string[] {
  const candidates = libraries.flatMap((library) => {
    const subfolders = readdirSync(library, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && /-linux-/.test(entry.name))
      .map((entry) => join(library, entry.name));
    return [library, ...subfolders].flatMap((folder) => [
      join(folder, 'gstreamer-1.0'),
      join(folder, 'gstreamer1.0'),
    ]);
  });
  return candidates.filter((folder) => kindOf(folder) === 'directory');
}

/** The existing `paths`, without repeats and without those inside another one of them. */
function outermost(paths: string[]): string[] {
  const existing = paths.filter((path) => isAbsolute(path) && existsSync(path));
  const sorted = [...new Set(existing.map((path) => resolve(path)))].sort();
  const kept: string[] = [];
  for (const path of sorted) {
    if (!kept.some((parent) => inside(path, parent))) kept.push(path);
  }
  return kept;
}

function inside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
