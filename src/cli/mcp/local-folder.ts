/**
 * The one folder `deckforge mcp --local DIR` works in (docs/mcp.md, "What is refused"): its templates are the
 * regular .pptx and .potx files at its top, its decks are written into its `deckforge-output` folder, and nothing
 * outside it is read or written. A name a tool gives is a plain file name: a path separator, `..`, an absolute
 * path or a NUL is refused before anything is opened, and files are opened without following symbolic links
 * (O_NOFOLLOW), so a link placed in the folder does not lead out of it either.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '../../mcp/tool-error.js';

export const OUTPUT_FOLDER = 'deckforge-output';
const TEMPLATE_FILE = /\.(pptx|potx)$/i;
const PLAIN_NAME = /^[^/\\\0]+$/;

export class LocalFolder {
  private constructor(readonly root: string) {}

  /** The folder, resolved once (a link to the folder itself is followed here, and only here). */
  static async open(dir: string): Promise<LocalFolder> {
    const root = await realpath(dir);
    if (!(await lstat(root)).isDirectory()) throw new Error(`${dir} is not a folder`);
    return new LocalFolder(root);
  }

  /** The regular template files at the folder's top, by name (links and folders left out). */
  async templateNames(): Promise<string[]> {
    const entries = await readdir(this.root, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && TEMPLATE_FILE.test(e.name) && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  }

  /** The bytes of a regular file at the folder's top named `name`; `what` names it in errors. */
  async read(name: string, what: string, path = 'arguments'): Promise<Uint8Array> {
    checkName(name, what, path);
    return readInside(join(this.root, name), () => notFound(what, name));
  }

  /** A deck this folder holds in its output folder. */
  async readOutput(name: string): Promise<Uint8Array> {
    checkName(name, 'deck', 'arguments.deck_id');
    await this.outputFolder();
    return readInside(join(this.root, OUTPUT_FOLDER, name), () => notFound('deck', name));
  }

  /** Writes `bytes` as the folder's top-level file `name` (a new version replaces the old one whole). */
  async writeTemplate(name: string, bytes: Uint8Array): Promise<void> {
    checkName(name, 'template', 'arguments.name');
    await writeInside(this.root, name, bytes);
  }

  /** Writes a deck into the output folder; returns its name relative to the folder (`deckforge-output/…`). */
  async writeOutput(name: string, bytes: Uint8Array): Promise<string> {
    checkName(name, 'deck', 'arguments');
    await writeInside(await this.outputFolder(), name, bytes);
    return `${OUTPUT_FOLDER}/${name}`;
  }

  /** The output folder, made when missing; refused when something else (a link) stands in its place. */
  private async outputFolder(): Promise<string> {
    const folder = join(this.root, OUTPUT_FOLDER);
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    const stat = await lstat(folder);
    if (!stat.isDirectory()) {
      throw new ToolError(
        'invalid_input',
        `${OUTPUT_FOLDER} in the folder is not a folder (a link?): decks are not written through it`,
      );
    }
    return folder;
  }
}

function checkName(name: string, what: string, path: string): void {
  if (!PLAIN_NAME.test(name) || name === '.' || name === '..' || name.includes('..')) {
    throw new ToolError(
      'invalid_input',
      `${path}: "${name}" is not a plain file name; a ${what} is named by its file name in the folder, without a path`,
      { path },
    );
  }
}

function notFound(what: string, name: string): ToolError {
  return new ToolError('not_found', `no ${what} named "${name}" in the folder`);
}

async function readInside(file: string, missing: () => ToolError): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: the name is a symbolic link, which is never followed.
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') throw missing();
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile()) throw missing();
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/** Written under a name of its own first (O_EXCL, never through a link), then renamed over the target. */
async function writeInside(folder: string, name: string, bytes: Uint8Array): Promise<void> {
  const partial = join(folder, `.${name}.${process.pid}.${Date.now()}.partial`);
  const handle = await open(
    partial,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o644,
  );
  try {
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
  try {
    await rename(partial, join(folder, name));
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
