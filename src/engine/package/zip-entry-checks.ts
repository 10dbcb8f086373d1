/**
 * Per-entry checks of a ZIP central directory: names that could escape a folder or collide, declared sizes
 * over the limits, overlapping entries. Each refusal is an EngineError naming the part.
 */
import { EngineError } from '../errors.js';
import { RATIO_EXEMPT_BYTES, type PackageLimits } from './limits.js';
import { FLAG_UTF8, METHOD_STORED, type ZipEntry } from './zip-format.js';

export function invalid(message: string, path: string | null = null): EngineError {
  return new EngineError('INVALID_TEMPLATE', message, path);
}

export function tooLarge(message: string, path: string | null = null): EngineError {
  return new EngineError('LIMIT_EXCEEDED', message, path);
}

export function decodeName(raw: Uint8Array, flags: number): string {
  if (flags & FLAG_UTF8 || raw.every((b) => b < 0x80)) return new TextDecoder('utf-8').decode(raw);
  // Without bit 11 the name is nominally CP437; in practice tools write UTF-8 anyway. Latin-1 never fails.
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return new TextDecoder('latin1').decode(raw);
  }
}

/** Zip-slip and OPC part-name hygiene: relative, forward slashes, no '.'/'..' or empty segments. */
export function checkItemName(name: string): void {
  const path = `/${name}`;
  if (name.length === 0) throw invalid('zip entry with an empty name');
  if (name.includes('\\') || name.includes('\0'))
    throw invalid('zip entry name contains a backslash or NUL', path);
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw invalid('zip entry name is absolute', path);
  for (const segment of name.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw invalid("zip entry name has an empty, '.' or '..' segment", path);
    }
  }
}

export function checkDeclaredSize(
  path: string,
  method: number,
  compressed: number,
  uncompressed: number,
  limits: PackageLimits,
): void {
  if (uncompressed > limits.maxEntryBytes) {
    throw tooLarge(
      `part declares ${uncompressed} bytes uncompressed, over the limit of ${limits.maxEntryBytes} (maxEntryBytes)`,
      path,
    );
  }
  if (method === METHOD_STORED && compressed !== uncompressed) {
    throw invalid('stored zip entry whose compressed and uncompressed sizes differ', path);
  }
}

/**
 * An entry over 1 MiB that claims to inflate to more than ratio × its compressed size is treated as a bomb.
 * Checked when the entry is inflated, not at open: a part that is only copied through raw (a flat bitmap
 * compresses 1000:1) costs no memory, so refusing the whole template for it would help nobody.
 */
export function checkCompressionRatio(entry: ZipEntry, limits: PackageLimits): void {
  const { compressedSize, uncompressedSize } = entry;
  if (
    uncompressedSize > RATIO_EXEMPT_BYTES &&
    uncompressedSize > limits.maxCompressionRatio * compressedSize
  ) {
    throw tooLarge(
      `part inflates ${compressedSize} bytes to ${uncompressedSize}, a ratio over the limit of ${limits.maxCompressionRatio} (maxCompressionRatio): a zip bomb`,
      `/${entry.name}`,
    );
  }
}

/** Overlapping entries are how "non-recursive" zip bombs multiply one compressed stream (Fifield 2019). */
export function checkNoOverlap(entries: ReadonlyMap<string, ZipEntry>): void {
  const sorted = [...entries.values()].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset);
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1]!;
    const current = sorted[i]!;
    if (previous.dataOffset + previous.compressedSize > current.localHeaderOffset) {
      throw invalid('corrupt zip archive: entries overlap', `/${current.name}`);
    }
  }
}
