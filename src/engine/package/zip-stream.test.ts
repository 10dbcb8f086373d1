/**
 * The streaming side of the zip writer: bounded chunks, ZIP64 records exactly where a value does not fit (and
 * never below), and parts that continue a head deflated once.
 */
import { unzipSync } from 'fflate';
import { randomBytes } from 'node:crypto';
import { crc32, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflateHead } from './deflate.js';
import { DEFAULT_LIMITS } from './limits.js';
import { readZip } from './zip-reader.js';
import { ChunkCollector, writeZip, ZipStreamWriter, type ByteSink } from './zip-writer.js';

const utf8 = (s: string) => new TextEncoder().encode(s);
const SLIDE = utf8(`<p:sld>${'<a:p><a:r><a:t>Hello</a:t></a:r></a:p>'.repeat(400)}</p:sld>`);

/** The end records of an archive: EOCD fields, and the ZIP64 record when a locator precedes the EOCD. */
function endRecords(tail: Uint8Array) {
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  const eocd = tail.length - 22;
  const locator = eocd - 20;
  const zip64 = locator >= 0 && view.getUint32(locator, true) === 0x07064b50;
  return {
    entries: view.getUint16(eocd + 10, true),
    directoryOffset: view.getUint32(eocd + 16, true),
    zip64,
    recordOffset: zip64 ? Number(view.getBigUint64(locator + 8, true)) : null,
  };
}

function tinyEntries(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    name: `p/${i}.xml`,
    data: new Uint8Array(0),
    compress: false,
  }));
}

describe('ZipStreamWriter', () => {
  it('hands the archive over in bounded chunks as entries are added, the same bytes writeZip returns', () => {
    // Text that deflate cannot shrink much, so that the archive spans many chunks.
    const entries = Array.from({ length: 400 }, (_, i) => ({
      name: `ppt/slides/slide${i + 1}.xml`,
      data: utf8(`<p:sld>${randomBytes(6000).toString('base64')}</p:sld>`),
      compress: true,
    }));
    const chunks: number[] = [];
    const collector = new ChunkCollector();
    const writer = new ZipStreamWriter({
      write(chunk) {
        chunks.push(chunk.length);
        collector.write(Buffer.from(chunk)); // the writer reuses its chunks: keep a copy
      },
    });
    for (const entry of entries) writer.add(entry);
    const writtenBeforeFinish = chunks.reduce((a, b) => a + b, 0);
    const size = writer.finish();
    // Most of the archive left before the central directory was written, in chunks of at most 256 KiB.
    expect(writtenBeforeFinish).toBeGreaterThan(size * 0.8);
    expect(Math.max(...chunks)).toBeLessThanOrEqual(256 * 1024);
    expect(Buffer.compare(collector.bytes(), writeZip(entries))).toBe(0);
    expect(Object.keys(unzipSync(collector.bytes()))).toHaveLength(400);
  });

  it('writes no ZIP64 record for 65 534 entries, and one for 65 535 (the count no longer fits)', () => {
    const below = writeZip(tinyEntries(65_534));
    expect(endRecords(below)).toMatchObject({ entries: 65_534, zip64: false });
    expect(readZip(below, { ...DEFAULT_LIMITS, maxEntries: 70_000 }).entries.size).toBe(65_534);

    const at = writeZip(tinyEntries(65_535));
    const end = endRecords(at);
    expect(end).toMatchObject({ entries: 0xffff, zip64: true });
    const record = new DataView(at.buffer, at.byteOffset + end.recordOffset!, 56);
    expect(record.getUint32(0, true)).toBe(0x06064b50);
    expect(Number(record.getBigUint64(32, true))).toBe(65_535);
    expect(record.getUint16(14, true)).toBe(45); // version needed 4.5, on this record only
    // An independent reader follows the ZIP64 record to every entry.
    expect(Object.keys(unzipSync(at))).toHaveLength(65_535);
  });

  it('past 4 GiB, gives the entries there ZIP64 central records with all three values (read by position)', () => {
    // 4.2 GiB pass through a sink that keeps only the end of the archive.
    const block = new Uint8Array(64 * 2 ** 20);
    const count = 66;
    let total = 0;
    let tail = new Uint8Array(0);
    const sink: ByteSink = {
      write(chunk) {
        total += chunk.length;
        // What follows the last block is the central directory and the end records, contiguous.
        tail = chunk.length >= 2 ** 20 ? new Uint8Array(0) : Buffer.concat([tail, chunk]);
      },
    };
    const writer = new ZipStreamWriter(sink);
    for (let i = 0; i < count; i++) writer.add({ name: `ppt/media/m${i}.bin`, data: block, compress: false });
    const size = writer.finish();
    expect(size).toBe(total);
    expect(size).toBeGreaterThan(2 ** 32);

    const end = endRecords(tail);
    expect(end).toMatchObject({ entries: count, directoryOffset: 0xffffffff, zip64: true });
    const base = size - tail.length; // offset of tail[0] in the archive
    const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
    const recordAt = end.recordOffset! - base;
    const directoryOffset = Number(view.getBigUint64(recordAt + 48, true));
    let pos = directoryOffset - base;
    let expectedOffset = 0;
    for (let i = 0; i < count; i++) {
      expect(view.getUint32(pos, true)).toBe(0x02014b50);
      const nameLength = view.getUint16(pos + 28, true);
      const extraLength = view.getUint16(pos + 30, true);
      const offset32 = view.getUint32(pos + 42, true);
      if (expectedOffset < 0xffffffff) {
        expect([extraLength, offset32, view.getUint16(pos + 6, true)]).toEqual([0, expectedOffset, 20]);
      } else {
        const extra = pos + 46 + nameLength;
        expect([extraLength, view.getUint16(extra, true), view.getUint16(extra + 2, true)]).toEqual([
          28, 1, 24,
        ]);
        expect(view.getUint16(pos + 6, true)).toBe(45);
        // All three header fields marked, all three values present, in APPNOTE's order.
        expect([view.getUint32(pos + 20, true), view.getUint32(pos + 24, true), offset32]).toEqual([
          0xffffffff, 0xffffffff, 0xffffffff,
        ]);
        expect(Number(view.getBigUint64(extra + 4, true))).toBe(block.length);
        expect(Number(view.getBigUint64(extra + 12, true))).toBe(block.length);
        expect(Number(view.getBigUint64(extra + 20, true))).toBe(expectedOffset);
      }
      expectedOffset += 30 + `ppt/media/m${i}.bin`.length + block.length;
      pos += 46 + nameLength + extraLength;
    }
  });

  it('writes a part that continues a shared head: the deflate stream and the CRC are the whole part', () => {
    const text = SLIDE.subarray(0, 9000);
    const head = deflateHead(text, 1);
    const tails = [
      utf8('<p14:creationId val="1"/></p:sld>'),
      utf8('<p14:creationId val="4294967295"/></p:sld>'),
    ];
    const zip = writeZip(tails.map((tail, i) => ({ name: `ppt/slides/slide${i + 1}.xml`, head, tail })));
    const archive = readZip(zip, DEFAULT_LIMITS);
    tails.forEach((tail, i) => {
      const whole = Buffer.concat([text, tail]);
      const name = `ppt/slides/slide${i + 1}.xml`;
      expect(Buffer.compare(inflateRawSync(archive.rawData(name)), whole)).toBe(0);
      expect(archive.entries.get(name)?.crc32).toBe(crc32(whole));
      expect(Buffer.compare(Buffer.from(archive.inflate(name)), whole)).toBe(0); // CRC checked by readZip too
    });
    // The head is stored once per part, not recompressed: both parts start with its exact bytes.
    expect(
      Buffer.compare(
        archive.rawData('ppt/slides/slide2.xml').subarray(0, head.deflated.length),
        head.deflated,
      ),
    ).toBe(0);
  });
});
