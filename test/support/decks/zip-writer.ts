/**
 * A bare ZIP writer for hostile test inputs: it writes whatever sizes, CRCs and compressed bytes it is
 * given, so a test can build archives no well-behaved library would (bombs, lying headers).
 * Layout per APPNOTE.TXT §4.3: local headers + data, central directory, end of central directory.
 */
import { crc32 } from 'node:zlib';

export interface RawZipEntry {
  name: string;
  /** 0 = Stored, 8 = Deflate. */
  method: 0 | 8;
  /** The bytes as they appear in the archive (already deflated for method 8). */
  data: Uint8Array;
  crc: number;
  uncompressedSize: number;
}

export function storedEntry(name: string, data: Uint8Array): RawZipEntry {
  return { name, method: 0, data, crc: crc32(data), uncompressedSize: data.length };
}

const DOS_DATE_1980 = 0x21; // 1980-01-01, time 00:00

export function writeZip(entries: readonly RawZipEntry[]): Uint8Array {
  const encoder = new TextEncoder();
  const names = entries.map((e) => encoder.encode(e.name));
  const localSize = entries.reduce((n, e, i) => n + 30 + (names[i]?.length ?? 0) + e.data.length, 0);
  const centralSize = names.reduce((n, name) => n + 46 + name.length, 0);
  const zip64Size = entries.length > 0xffff ? 76 : 0;
  const out = new Uint8Array(localSize + centralSize + zip64Size + 22);
  const view = new DataView(out.buffer);
  const offsets: number[] = [];
  let at = 0;
  entries.forEach((e, i) => {
    const name = names[i] ?? new Uint8Array();
    offsets.push(at);
    view.setUint32(at, 0x04034b50, true);
    view.setUint16(at + 4, 20, true); // version needed 2.0
    view.setUint16(at + 6, 0x0800, true); // UTF-8 names
    view.setUint16(at + 8, e.method, true);
    view.setUint16(at + 10, 0, true);
    view.setUint16(at + 12, DOS_DATE_1980, true);
    view.setUint32(at + 14, e.crc >>> 0, true);
    view.setUint32(at + 18, e.data.length, true);
    view.setUint32(at + 22, e.uncompressedSize >>> 0, true);
    view.setUint16(at + 26, name.length, true);
    view.setUint16(at + 28, 0, true);
    out.set(name, at + 30);
    out.set(e.data, at + 30 + name.length);
    at += 30 + name.length + e.data.length;
  });
  const centralStart = at;
  entries.forEach((e, i) => {
    const name = names[i] ?? new Uint8Array();
    view.setUint32(at, 0x02014b50, true);
    view.setUint16(at + 4, 20, true); // version made by
    view.setUint16(at + 6, 20, true);
    view.setUint16(at + 8, 0x0800, true);
    view.setUint16(at + 10, e.method, true);
    view.setUint16(at + 12, 0, true);
    view.setUint16(at + 14, DOS_DATE_1980, true);
    view.setUint32(at + 16, e.crc >>> 0, true);
    view.setUint32(at + 20, e.data.length, true);
    view.setUint32(at + 24, e.uncompressedSize >>> 0, true);
    view.setUint16(at + 28, name.length, true);
    // extra, comment, disk start, internal attrs, external attrs: all zero
    view.setUint32(at + 42, offsets[i] ?? 0, true);
    out.set(name, at + 46);
    at += 46 + name.length;
  });
  const zip64 = entries.length > 0xffff;
  if (zip64) {
    // APPNOTE §4.3.14-15: ZIP64 end of central directory record + locator, needed past 65 535 entries.
    view.setUint32(at, 0x06064b50, true);
    view.setBigUint64(at + 4, 44n, true);
    view.setUint16(at + 12, 45, true);
    view.setUint16(at + 14, 45, true);
    view.setBigUint64(at + 24, BigInt(entries.length), true);
    view.setBigUint64(at + 32, BigInt(entries.length), true);
    view.setBigUint64(at + 40, BigInt(centralSize), true);
    view.setBigUint64(at + 48, BigInt(centralStart), true);
    view.setUint32(at + 56, 0x07064b50, true);
    view.setBigUint64(at + 64, BigInt(at), true);
    view.setUint32(at + 72, 1, true);
    at += 76;
  }
  view.setUint32(at, 0x06054b50, true);
  const count = zip64 ? 0xffff : entries.length;
  view.setUint16(at + 8, count, true);
  view.setUint16(at + 10, count, true);
  view.setUint32(at + 12, centralSize, true);
  view.setUint32(at + 16, centralStart, true);
  return out;
}
