/**
 * Blobs as files under `<dataDir>/blobs`, downloaded through our own signed-link route. A link is
 * `<base>/v2.0/files/<key>/<file name>?expires=<unix seconds>&signature=<HMAC-SHA256, base64url>`, the HMAC
 * taken over key, file name and expiry, compared in constant time. The client cannot build one without the
 * secret (DECKFORGE_LINK_SECRET, or a random secret created once in the data dir).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { DOWNLOAD_PATH_PREFIX } from '../../service/deckforge-service.js';
import type { BlobReader, BlobStore, SignedLinkRequest, VerifiedLink } from '../../service/ports/index.js';

const KEY_PATTERN = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

export class LocalDiskBlobStore implements BlobStore {
  private readonly root: string;
  private readonly secret: Buffer;

  constructor(dataDir: string, secret: string | null) {
    this.root = resolve(dataDir, 'blobs');
    mkdirSync(this.root, { recursive: true });
    this.secret = secret ? Buffer.from(secret, 'utf8') : loadOrCreateSecret(dataDir);
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const file = this.fileOf(key);
    await mkdir(dirname(file), { recursive: true });
    // Write then rename: a reader never sees half a file.
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, file);
  }

  async putFile(key: string, file: string): Promise<void> {
    const target = this.fileOf(key);
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(file, target);
    } catch (error) {
      if ((error as { code?: string }).code !== 'EXDEV') throw error;
      // Another file system: copy beside the target, then rename, so a reader never sees half a file.
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      await copyFile(file, temporary);
      await rename(temporary, target);
      await rm(file, { force: true });
    }
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
    await rm(this.fileOf(trimmed), { recursive: true, force: true });
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
