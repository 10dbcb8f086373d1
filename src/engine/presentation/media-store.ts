/**
 * The deck's image parts: every image a payload puts in is stored once per deck, across slides and copies of
 * slides, and an image equal to one the template already has reuses the template's part (several
 * relationships may target one part: docs/powerpoint-rules.md "Image formats and orientation"). Parts a replaced
 * picture no longer uses are not this file's business: the package builder prunes whatever nothing reaches.
 *
 * Identity is byte equality, and candidates are found by size alone: hashing every image would read all of its
 * bytes (20 MB for a hundred photos) only to find the few that are equal, while a comparison of two images of
 * the same size stops at their first difference. The template's candidates come from the zip's central
 * directory, so no template image is read unless one of the payload's has exactly its size.
 */
import type { PackageBuilder } from '../package/package-builder.js';
import type { PreparedImage, StoredImageType } from '../pictures/prepared-image.js';
import type { PartNamer } from './part-namer.js';
import type { Template } from './template.js';

export interface StoredImage {
  /** Part name of the raster (for an SVG, its PNG rendition). */
  raster: string;
  svg: string | null;
}

const RASTER: Record<StoredImageType, { extension: string; contentType: string }> = {
  png: { extension: 'png', contentType: 'image/png' },
  jpeg: { extension: 'jpeg', contentType: 'image/jpeg' },
  gif: { extension: 'gif', contentType: 'image/gif' },
};

export class MediaStore {
  /** Byte size → the part names of that size. */
  private index: Map<number, string[]> | null = null;
  /** Bytes of the parts this store wrote (template parts are read from the template). */
  private readonly written = new Map<string, Uint8Array>();
  /** One payload image is usually used many times: it is looked up once. */
  private readonly stored = new WeakMap<PreparedImage, StoredImage>();

  constructor(
    private readonly template: Template,
    private readonly builder: PackageBuilder,
    private readonly names: PartNamer,
  ) {}

  store(image: PreparedImage): StoredImage {
    const known = this.stored.get(image);
    if (known) return known;
    const { extension, contentType } = RASTER[image.type];
    const result = {
      raster: this.part(image.bytes, extension, contentType),
      svg: image.svg ? this.part(image.svg, 'svg', 'image/svg+xml') : null,
    };
    this.stored.set(image, result);
    return result;
  }

  private part(bytes: Uint8Array, extension: string, contentType: string): string {
    const key = bytes.byteLength;
    const index = this.templateIndex();
    const candidates = index.get(key) ?? [];
    for (const candidate of candidates)
      if (this.builder.has(candidate) && sameBytes(this.bytesOf(candidate), bytes)) return candidate;
    const partName = this.names.free((n) => `/ppt/media/image${n}.${extension}`);
    this.builder.setPart(partName, bytes, contentType);
    this.written.set(partName, bytes);
    index.set(key, [...candidates, partName]);
    return partName;
  }

  private bytesOf(partName: string): Uint8Array {
    return this.written.get(partName) ?? this.template.pkg.bytes(partName);
  }

  /** The template's image parts by size, read from the central directory only. */
  private templateIndex(): Map<number, string[]> {
    if (this.index) return this.index;
    const index = new Map<number, string[]>();
    const pkg = this.template.pkg;
    for (const entry of pkg.archive.entries.values()) {
      const partName = `/${entry.name}`;
      if (!pkg.contentTypes.typeOf(partName)?.startsWith('image/')) continue;
      const key = entry.uncompressedSize;
      index.set(key, [...(index.get(key) ?? []), partName]);
    }
    this.index = index;
    return index;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;
}
