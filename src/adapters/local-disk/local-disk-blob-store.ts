/**
 * Blobs as files under `<dataDir>/blobs`, downloaded through our own signed-link route. A link is
 * `<base>/v2.0/files/<key>/<file name>?expires=<unix seconds>&signature=<HMAC-SHA256, base64url>`, the HMAC
 * taken over key, file name and expiry, compared in constant time. The client cannot build one without the
 * secret (DECKFORGE_LINK_SECRET, or a random secret created once in the data dir).
 *
 * Writes and deletions race safely (docs/operations.md, "The data directory"): a blob is written in full in
 * `blobs/~staging` (a name no key can have, `~` being outside the key characters, and on the same file system,
 * so a rename is atomic) and renamed into its key's folder; a deletion first renames the folder into staging, then
 * removes it there. A put whose folder vanished under it (a deletion of that prefix) makes the folder again and
 * renames again. So a key is always whole or absent, and no temporary file is ever inside a key's folder.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { DOWNLOAD_PATH_PREFIX } from '../../service/deckforge-service.js';
import type { BlobReader, BlobStore, SignedLinkRequest, VerifiedLink } from '../../service/ports/index.js';

const KEY_PATTERN = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/** Inside the root, outside every key folder: `~` is not a key character. */
const STAGING_FOLDER = '~staging';

/** Staging entries older than this at start were left by a crash (a write or a deletion takes far less). */
const STALE_STAGING_MS = 60 * 60 * 1000;

/** Times a put makes its key's folder again after a deletion of it removed the folder under it. */
const MAX_FOLDER_ATTEMPTS = 100;

export class LocalDiskBlobStore implements BlobStore {
  private readonly root: string;
  private readonly staging: string;
  private readonly secret: Buffer;

  constructor(dataDir: string, secret: string | null) {
    this.root = resolve(dataDir, 'blobs');
    this.staging = join(this.root, STAGING_FOLDER);
    mkdirSync(this.staging, { recursive: true });
    sweepStaleStaging(this.staging);
    this.secret = secret ? Buffer.from(secret, 'utf8') : loadOrCreateSecret(dataDir);
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const target = this.fileOf(key);
    // Written in full in staging, then renamed: a reader never sees half a file.
    const temporary = this.stagingName();
    try {
      await writeFile(temporary, bytes);
      await this.moveIn(temporary, target);
    } finally {
      await rm(temporary, { force: true });
    }
  }

  async putFile(key: string, file: string): Promise<void> {
    const target = this.fileOf(key);
    try {
      await this.moveIn(file, target);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EXDEV') throw error;
    }
    // Another file system: copied into staging first, so a reader never sees half a file.
    const temporary = this.stagingName();
    try {
      await copyFile(file, temporary);
      await this.moveIn(temporary, target);
      await rm(file, { force: true });
    } finally {
      await rm(temporary, { force: true });
    }
  }

  /** Renames `file` to `target`, making target's folder (again, when a deletion removed it under this put). */
  private async moveIn(file: string, target: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await mkdir(dirname(target), { recursive: true });
        await rename(file, target);
        return;
      } catch (error) {
        // ENOENT: the folder went before the rename. ENOTDIR: mkdir's walk met a folder that went at that moment.
        const code = (error as { code?: string }).code;
        if ((code !== 'ENOENT' && code !== 'ENOTDIR') || attempt >= MAX_FOLDER_ATTEMPTS) throw error;
      }
    }
  }

  private stagingName(): string {
    return join(this.staging, randomBytes(12).toString('hex'));
  }

  async open(key: string): Promise<BlobReader | null> {
    const file = this.fileOf(key);
    try {
      const { size } = await stat(file);
      return { byteLength: size, stream: () => createReadStream(file) };
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return null;
      throw error;
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      const buffer = await readFile(this.fileOf(key));
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return null;
      throw error;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    const trimmed = prefix.replace(/\/+$/, '');
    if (!KEY_PATTERN.test(trimmed)) throw new Error(`invalid blob prefix "${prefix}"`);
    // Out of the key space at once (a rename is atomic), then removed where no put can write into it.
    const doomed = this.stagingName();
    try {
      await rename(this.fileOf(trimmed), doomed);
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return;
      throw error;
    }
    // A put that had already looked up the folder when it moved still lands in it (the kernel renames into the
    // folder it found, wherever it now is): that put came before this deletion, and the removal tries again.
    await rm(doomed, { recursive: true, force: true, maxRetries: 5, retryDelay: 5 });
  }

  async signedUrl(request: SignedLinkRequest): Promise<string> {
    this.fileOf(request.key); // validates the key
    const expires = Math.floor(request.expiresAt.getTime() / 1000);
    const signature = this.sign(request.key, request.fileName, expires);
    const base = request.baseUrl.replace(/\/+$/, '');
    return `${base}${DOWNLOAD_PATH_PREFIX}${request.key}/${encodeURIComponent(request.fileName)}?expires=${expires}&signature=${signature}`;
  }

  async verifySignedPath(pathAndQuery: string, now: Date): Promise<VerifiedLink | null> {
    let url: URL;
    try {
      url = new URL(pathAndQuery, 'http://link.invalid');
    } catch {
      return null;
    }
    if (!url.pathname.startsWith(DOWNLOAD_PATH_PREFIX)) return null;
    const rest = url.pathname.slice(DOWNLOAD_PATH_PREFIX.length);
    const slash = rest.lastIndexOf('/');
    if (slash <= 0) return null;
    const key = rest.slice(0, slash);
    let fileName: string;
    try {
      fileName = decodeURIComponent(rest.slice(slash + 1));
    } catch {
      return null;
    }
    const expiresText = url.searchParams.get('expires') ?? '';
    const signature = url.searchParams.get('signature') ?? '';
    if (!KEY_PATTERN.test(key) || !/^\d{1,12}$/.test(expiresText)) return null;
    const expected = Buffer.from(this.sign(key, fileName, Number(expiresText)), 'utf8');
    const given = Buffer.from(signature, 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (Number(expiresText) * 1000 <= now.getTime()) return null;
    return { key, fileName };
  }

  async ping(): Promise<boolean> {
    try {
      return (await stat(this.root)).isDirectory();
    } catch {
      return false;
    }
  }

  private sign(key: string, fileName: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${key}\n${fileName}\n${expires}`).digest('base64url');
  }

  /** Maps a key to its file, refusing anything that could leave the blob root. */
  private fileOf(key: string): string {
    if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '.' || part === '..')) {
      throw new Error(`invalid blob key "${key}"`);
    }
    const file = resolve(this.root, ...key.split('/'));
    if (!file.startsWith(this.root + sep)) throw new Error(`invalid blob key "${key}"`);
    return file;
  }
}

/**
 * Removes what a crash left in staging: entries older than any write or deletion takes. Best effort. Their age
 * is told by the file system's clock (the time it gives a file written now), not the process's: on a shared
 * network folder, or a clock set apart, the two differ, and an entry another node is writing must not look old.
 */
function sweepStaleStaging(staging: string): void {
  const probe = join(staging, `~now-${randomBytes(8).toString('hex')}`);
  writeFileSync(probe, '');
  const now = statSync(probe).mtimeMs;
  unlinkSync(probe);
  for (const name of readdirSync(staging)) {
    const entry = join(staging, name);
    try {
      if (now - statSync(entry).mtimeMs > STALE_STAGING_MS) rmSync(entry, { recursive: true, force: true });
    } catch {
      // Another process swept it first, or is still removing it: either way not ours to finish.
    }
  }
}

/** The secret lives in the data dir (mode 0600) so links stay valid across restarts. */
function loadOrCreateSecret(dataDir: string): Buffer {
  const file = join(dataDir, 'link-secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
  }
  const text = readFileSync(file, 'utf8').trim();
  if (text.length < 32) throw new Error(`${file} holds no usable link secret; delete it to create a new one`);
  return Buffer.from(text, 'utf8');
}
