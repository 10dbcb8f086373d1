import { unzipSync } from 'fflate';
import { crc32, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { layoutsTemplate } from './layouts-template.js';
import { findPackageViolations } from '../checks/package-invariants.js';
import {
  billionLaughsPptx,
  docxPackage,
  lyingSizeZipBomb,
  manyEntriesZip,
  nonZipFile,
  plainZip,
  truncatedZip,
  zipBomb,
} from './hostile-inputs.js';

/** Central-directory view of an archive, without inflating anything. */
function listing(bytes: Uint8Array): Map<string, { size: number; originalSize: number }> {
  const out = new Map<string, { size: number; originalSize: number }>();
  unzipSync(bytes, {
    filter: (f) => {
      out.set(f.name, { size: f.size, originalSize: f.originalSize });
      return false;
    },
  });
  return out;
}

/** CRC-32 recorded in the central directory for `name` (APPNOTE §4.3.12), read by hand. */
function centralCrc(bytes: Uint8Array, name: string): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = bytes.length - 22;
  while (at > 0 && view.getUint32(at, true) !== 0x06054b50) at--;
  const entries = view.getUint16(at + 10, true);
  let p = view.getUint32(at + 16, true);
  for (let i = 0; i < entries; i++) {
    const nameLength = view.getUint16(p + 28, true);
    const entryName = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLength));
    if (entryName === name) return view.getUint32(p + 16, true);
    p += 46 + nameLength + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
  }
  return undefined;
}

/** Offset of an entry's compressed data, from its local header (found via the central directory). */
function localData(bytes: Uint8Array, name: string): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const needle = new TextEncoder().encode(name);
  for (let at = 0; at < bytes.length - 30; at++) {
    if (view.getUint32(at, true) !== 0x04034b50) continue;
    const nameLength = view.getUint16(at + 26, true);
    const here = bytes.subarray(at + 30, at + 30 + nameLength);
    if (nameLength === needle.length && here.every((b, i) => b === needle[i])) {
      return at + 30 + nameLength + view.getUint16(at + 28, true);
    }
  }
  throw new Error(`no local header for ${name}`);
}

/** Inflates one entry and returns its bytes. */
function inflate(bytes: Uint8Array, name: string): Uint8Array {
  const data = unzipSync(bytes, { filter: (f) => f.name === name })[name];
  if (!data) throw new Error(`no entry ${name}`);
  return data;
}

describe('hostile inputs', () => {
  it('zipBomb: a small archive declaring a 2 GiB slide next to a complete package', () => {
    const bomb = zipBomb();
    expect(bomb.length).toBeLessThan(4 * 2 ** 20);
    const entries = listing(bomb);
    expect(entries.get('ppt/slides/slide1.xml')?.originalSize).toBe(2 ** 31);
    expect([...entries.keys()]).toEqual(
      expect.arrayContaining(['[Content_Types].xml', '_rels/.rels', 'ppt/presentation.xml']),
    );
  });

  it('zipBomb: the 2 GiB entry carries the CRC-32 of 2 GiB of zeros', () => {
    const chunk = new Uint8Array(2 ** 24);
    let crc = 0;
    for (let i = 0; i < 2 ** 31 / chunk.length; i++) crc = crc32(chunk, crc);
    expect(centralCrc(zipBomb(), 'ppt/slides/slide1.xml')).toBe(crc);
  });

  it('zipBomb: the data inflates to what the header says, CRC included (checked on a 16 MiB bomb)', () => {
    const bomb = zipBomb({ inflatedBytes: 16 * 2 ** 20 });
    const data = inflate(bomb, 'ppt/slides/slide1.xml');
    expect(data.length).toBe(16 * 2 ** 20);
    expect(data.every((b) => b === 0)).toBe(true);
    expect(centralCrc(bomb, 'ppt/slides/slide1.xml')).toBe(crc32(data));
  });

  it('lyingSizeZipBomb: the header declares 1 KiB, the data inflates to far more', () => {
    const bomb = lyingSizeZipBomb(8 * 2 ** 20, 1024);
    expect(listing(bomb).get('ppt/slides/slide1.xml')?.originalSize).toBe(1024);
    expect(inflateRawSync(bomb.subarray(localData(bomb, 'ppt/slides/slide1.xml'))).length).toBe(8 * 2 ** 20);
  });

  it('manyEntriesZip: 100 000 extra entries, readable through the ZIP64 end record', () => {
    const zip = manyEntriesZip();
    expect(listing(zip).size).toBe(100_000 + Object.keys(unzipSync(layoutsTemplate())).length);
  });

  it('billionLaughsPptx: the slide declares nested entities and uses the outermost one', () => {
    const pptx = billionLaughsPptx();
    const slide = new TextDecoder().decode(
      unzipSync(pptx, { filter: (f) => f.name === 'ppt/slides/slide1.xml' })['ppt/slides/slide1.xml'],
    );
    expect(slide).toMatch(
      /^<\?xml[^>]*\?><!DOCTYPE p:sld \[<!ENTITY lol0 "lol"><!ENTITY lol1 "(&lol0;){10}">/,
    );
    expect(slide).toContain('name="&lol9;"');
    expect(findPackageViolations(pptx).map((v) => v.kind)).toEqual(['xml-doctype']);
  });

  it('docxPackage and plainZip: ZIPs that are not presentations', () => {
    expect([...listing(docxPackage()).keys()]).toContain('word/document.xml');
    expect([...listing(plainZip()).keys()]).toEqual(['hello.txt']);
  });

  it('nonZipFile and truncatedZip: bytes a ZIP reader must refuse', () => {
    expect(() => unzipSync(nonZipFile())).toThrow();
    expect(() => unzipSync(truncatedZip())).toThrow();
  });
});
