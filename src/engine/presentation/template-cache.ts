/**
 * Opened templates by content hash, so a repeated request on the same template skips unzipping and parsing.
 * The cache is an object the caller owns (one per worker thread), not module state: the engine stays pure.
 */
import { createHash } from 'node:crypto';
import type { PackageLimits } from '../package/limits.js';
import { Template } from './template.js';

export class TemplateCache {
  private readonly entries = new Map<string, Template>();

  constructor(private readonly maxEntries = 16) {}

  open(bytes: Uint8Array, limits?: Partial<PackageLimits>): Template {
    const hash = createHash('sha256').update(bytes).digest('hex');
    const cached = this.entries.get(hash);
    if (cached) {
      // Map keeps insertion order: re-inserting marks it most recently used.
      this.entries.delete(hash);
      this.entries.set(hash, cached);
      return cached;
    }
    const template = Template.open(bytes, hash, limits);
    this.entries.set(hash, template);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return template;
  }

  get size(): number {
    return this.entries.size;
  }
}
