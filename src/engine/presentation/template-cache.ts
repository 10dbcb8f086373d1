/**
 * Opened templates by content hash, so a repeated request on the same template skips unzipping and parsing.
 * The cache is an object the caller owns (one per worker thread), not module state: the engine stays pure.
 * It is bounded by count and by the templates' size (the parsed parts grow with it), least recently used
 * first out; the template just opened always stays.
 */
import { createHash } from 'node:crypto';
import type { PackageLimits } from '../package/limits.js';
import { Template } from './template.js';

export interface TemplateCacheLimits {
  maxEntries: number;
  /** Sum of the cached templates' file sizes. */
  maxBytes: number;
}

const DEFAULT_CACHE_LIMITS: TemplateCacheLimits = { maxEntries: 16, maxBytes: 256 * 2 ** 20 };

export class TemplateCache {
  private readonly entries = new Map<string, { template: Template; bytes: number }>();
  private totalBytes = 0;
  private readonly limits: TemplateCacheLimits;

  constructor(limits: Partial<TemplateCacheLimits> | number = {}) {
    this.limits = {
      ...DEFAULT_CACHE_LIMITS,
      ...(typeof limits === 'number' ? { maxEntries: limits } : limits),
    };
  }

  open(bytes: Uint8Array, limits?: Partial<PackageLimits>): Template {
    const hash = createHash('sha256').update(bytes).digest('hex');
    const cached = this.entries.get(hash);
    if (cached) {
      // Map keeps insertion order: re-inserting marks it most recently used.
      this.entries.delete(hash);
      this.entries.set(hash, cached);
      return cached.template;
    }
    const template = Template.open(bytes, hash, limits);
    this.entries.set(hash, { template, bytes: bytes.length });
    this.totalBytes += bytes.length;
    while (
      this.entries.size > 1 &&
      (this.entries.size > this.limits.maxEntries || this.totalBytes > this.limits.maxBytes)
    ) {
      const [oldest, entry] = this.entries.entries().next().value as [string, { bytes: number }];
      this.entries.delete(oldest);
      this.totalBytes -= entry.bytes;
    }
    return template;
  }

  get size(): number {
    return this.entries.size;
  }
}
