/**
 * Resource limits for reading a template package. They bound memory and CPU for hostile input (zip bombs,
 * archives with absurd entry counts) while leaving room for any real deck: a 20 MB PowerPoint file inflates
 * to well under 100 MB.
 */
export interface PackageLimits {
  /** Size of the template file itself. */
  maxArchiveBytes: number;
  /** Number of entries in the zip's central directory. */
  maxEntries: number;
  /** Uncompressed size of any one part. */
  maxEntryBytes: number;
  /** Sum of the uncompressed sizes actually inflated from one archive. */
  maxTotalBytes: number;
  /** An entry over 1 MiB that inflates to more than ratio × its compressed size is a bomb (checked on inflate). */
  maxCompressionRatio: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: PackageLimits = Object.freeze({
  maxArchiveBytes: 200 * MiB,
  maxEntries: 10_000,
  maxEntryBytes: 256 * MiB,
  maxTotalBytes: 1024 * MiB,
  maxCompressionRatio: 200,
});

/** Entries at or below this size are never judged by their compression ratio (tiny XML compresses ~100:1). */
export const RATIO_EXEMPT_BYTES = MiB;

export function resolveLimits(overrides?: Partial<PackageLimits>): PackageLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(limits) as (keyof PackageLimits)[]) {
    const value = overrides?.[key];
    if (value !== undefined) {
      if (!(value > 0)) throw new RangeError(`package limit ${key} must be a positive number, got ${value}`);
      limits[key] = value;
    }
  }
  return Object.freeze(limits);
}
