/**
 * Opened templates by content hash (SHA-256), so a repeated request on the same bytes skips what opening does:
 * the zip checks (size, zip bombs, encryption), unzipping and parsing. The cache is an object the caller owns
 * (one per worker thread), not module state: the engine stays pure.
 *
 * It is bounded by the bytes it holds, least recently used first out: a template counts its file plus what its
 * memoised work holds (Template.memoisedBytes), which grows as its parts are used, so each entry is measured
 * again whenever the cache is trimmed (on every open, and by `generate` when it is done). A template larger than
 * the whole bound is used for its request and not kept; a bound of 0 keeps nothing.
 */
import { createHash } from 'node:crypto';
import type { PackageLimits } from '../package/limits.js';
import { Template } from './template.js';

export interface TemplateCacheLimits {
  /** Most templates kept. */
  maxEntries: number;
  /** Most bytes the kept templates may hold together (files and memoised work); 0 keeps nothing. */
  maxBytes: number;
}

const DEFAULT_CACHE_LIMITS: TemplateCacheLimits = { maxEntries: 16, maxBytes: 256 * 2 ** 20 };

interface Entry {
  template: Template;
  fileBytes: number;
  /** Measured at the last trim. */
  heldBytes: number;
}

export class TemplateCache {
  private readonly entries = new Map<string, Entry>();
  private readonly limits: TemplateCacheLimits;

  constructor(limits: Partial<TemplateCacheLimits> | number = {}) {
    this.limits = {
      ...DEFAULT_CACHE_LIMITS,
      ...(typeof limits === 'number' ? { maxEntries: limits } : limits),
    };
  }

  /**
   * The template of `bytes`, opened now or earlier. `hash` is their SHA-256 in hex when the caller already
   * knows it (a stored template's), which spares hashing the file; it is trusted, not checked.
   */
  open(bytes: Uint8Array, limits?: Partial<PackageLimits>, hash?: string): Template {
    const key = hash ?? createHash('sha256').update(bytes).digest('hex');
    const cached = this.entries.get(key);
    if (cached) {
      // Map keeps insertion order: re-inserting marks it most recently used.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached.template;
    }
    const template = Template.open(bytes, key, limits);
    this.entries.set(key, { template, fileBytes: bytes.byteLength, heldBytes: bytes.byteLength });
    this.trim();
    return template;
  }

  /** Measures every entry again and lets the least recently used go until the cache is within its bounds. */
  trim(): void {
    let total = 0;
    for (const entry of this.entries.values()) {
      entry.heldBytes = entry.fileBytes + entry.template.memoisedBytes;
      total += entry.heldBytes;
    }
    for (const [key, entry] of this.entries) {
      if (total <= this.limits.maxBytes && this.entries.size <= this.limits.maxEntries) break;
      this.entries.delete(key);
      total -= entry.heldBytes;
    }
  }

  /** Whether the template with this content hash is kept. */
  has(hash: string): boolean {
    return this.entries.has(hash);
  }

  /** Templates kept. */
  get size(): number {
    return this.entries.size;
  }

  /** What the kept templates held when last measured (after the last open or trim). */
  get heldBytes(): number {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.heldBytes;
    return total;
  }
}
