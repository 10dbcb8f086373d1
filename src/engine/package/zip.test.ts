import { unzipSync } from 'fflate';
import { randomBytes } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { engineErrorOf } from '../../../test/support/checks/engine-error.js';
import {
  lyingSizeZipBomb,
  manyEntriesZip,
  truncatedZip,
} from '../../../test/support/decks/hostile-inputs.js';
import {
  storedEntry,
  writeZip as writeRawZip,
  type RawZipEntry,
} from '../../../test/support/decks/zip-writer.js';
import { DEFAULT_LIMITS, resolveLimits } from './limits.js';
import { readZip, writeZip, type ZipOutputEntry } from './zip.js';

const utf8 = (s: string) => new TextEncoder().encode(s);
const XML = utf8(
  `<?xml version="1.0"?><p:sld>${'<a:p><a:r><a:t>Hello</a:t></a:r></a:p>'.repeat(200)}</p:sld>`,
);

/** Offsets of the central directory records, to corrupt single fields. */
function centralRecords(zip: Uint8Array): number[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = zip.length - 22;
  let pos = view.getUint32(eocd + 16, true);
  const offsets: number[] = [];
  for (let i = 0; i < view.getUint16(eocd + 10, true); i++) {
    offsets.push(pos);
    pos +=
      46 + view.getUint16(pos + 28, true) + view.getUint16(pos + 30, true) + view.getUint16(pos + 32, true);
  }
  return offsets;
}

function patch(zip: Uint8Array, edit: (view: DataView, records: number[]) => void): Uint8Array {
  const copy = zip.slice();
  edit(new DataView(copy.buffer), centralRecords(copy));
  return copy;
}

function deflated(name: string, data: Uint8Array, declared = data.length, crc = crc32(data)): RawZipEntry {
  return { name, method: 8, data: deflateRawSync(data), crc, uncompressedSize: declared };
}

const sample: ZipOutputEntry[] = [
  { name: 'ppt/slides/slide1.xml', data: XML, compress: true },
  { name: 'ppt/media/image1.png', data: randomBytes(5000), compress: false },
  { name: 'ppt/empty.xml', data: new Uint8Array(), compress: true },
  { name: 'ppt/media/bild-ü.png', data: utf8('umlaut'), compress: false },
  { name: '[Content_Types].xml', data: utf8('<Types/>'), compress: true },
];

describe('writeZip', () => {
  it('writes an archive that an independent reader (fflate) and readZip both read back exactly', () => {
    const zip = writeZip(sample);
    const independent = unzipSync(zip);
    const archive = readZip(zip, DEFAULT_LIMITS);
    for (const entry of sample) {
      if (!('data' in entry)) continue;
      expect(independent[entry.name]).toEqual(new Uint8Array(entry.data));
      expect(new Uint8Array(archive.inflate(entry.name))).toEqual(new Uint8Array(entry.data));
    }
  });

  it('puts [Content_Types].xml first and keeps the given order for the rest', () => {
    const names = [...readZip(writeZip(sample), DEFAULT_LIMITS).entries.keys()];
    expect(names).toEqual([
      '[Content_Types].xml',
      'ppt/slides/slide1.xml',
      'ppt/media/image1.png',
      'ppt/empty.xml',
      'ppt/media/bild-ü.png',
    ]);
  });

  it('is deterministic: identical input gives identical bytes (fixed 1980-01-01 timestamp)', () => {
    const a = writeZip(sample);
    const b = writeZip(sample.map((e) => ({ ...e })));
    expect(Buffer.compare(a, b)).toBe(0);
    const view = new DataView(a.buffer, a.byteOffset, a.byteLength);
    for (const record of centralRecords(a)) {
      expect(view.getUint16(record + 6, true)).toBe(20); // version needed 2.0
      expect(view.getUint16(record + 12, true)).toBe(0); // time
      expect(view.getUint16(record + 14, true)).toBe(0x21); // date 1980-01-01
      expect(view.getUint16(record + 8, true) & 0x0008).toBe(0); // no data descriptor
    }
  });

  it('deflates XML, stores what is asked to be stored, and stores what deflate would enlarge', () => {
    const noise = randomBytes(4000);
    const archive = readZip(
      writeZip([...sample, { name: 'ppt/noise.bin', data: noise, compress: true }]),
      DEFAULT_LIMITS,
    );
    expect(archive.entries.get('ppt/slides/slide1.xml')?.method).toBe(8);
    expect(archive.entries.get('ppt/slides/slide1.xml')!.compressedSize).toBeLessThan(XML.length / 10);
    expect(archive.entries.get('ppt/media/image1.png')?.method).toBe(0);
    expect(archive.entries.get('ppt/noise.bin')?.method).toBe(0);
    expect(archive.entries.get('ppt/media/bild-ü.png')!.flags & 0x0800).toBe(0x0800); // UTF-8 name flag
  });

  it('copies entries from another archive as their compressed bytes, without recompressing', () => {
    const source = readZip(writeZip(sample, { level: 9 }), DEFAULT_LIMITS);
    const copy = readZip(
      writeZip([{ name: 'ppt/slides/slide7.xml', from: source, source: 'ppt/slides/slide1.xml' }]),
      DEFAULT_LIMITS,
    );
    expect(copy.rawData('ppt/slides/slide7.xml')).toEqual(source.rawData('ppt/slides/slide1.xml'));
    expect(new Uint8Array(copy.inflate('ppt/slides/slide7.xml'))).toEqual(XML);
  });

  it('refuses duplicate (case-insensitive) and directory-like names', () => {
    expect(() => writeZip([...sample, { name: 'PPT/Slides/Slide1.xml', data: XML, compress: true }])).toThrow(
      /duplicate/,
    );
    expect(() => writeZip([{ name: 'ppt/', data: new Uint8Array(), compress: false }])).toThrow(
      /relative and name a file/,
    );
  });
});

describe('readZip', () => {
  const base = () => writeZip(sample);

  it('skips directory entries: they are not parts and are never copied out', () => {
    const zip = writeRawZip([storedEntry('ppt/', new Uint8Array()), storedEntry('ppt/a.xml', utf8('<a/>'))]);
    expect([...readZip(zip, DEFAULT_LIMITS).entries.keys()]).toEqual(['ppt/a.xml']);
  });

  it('inflates nothing until asked', () => {
    const archive = readZip(base(), DEFAULT_LIMITS);
    expect(archive.totalInflated).toBe(0);
    archive.inflate('ppt/slides/slide1.xml');
    expect(archive.totalInflated).toBe(XML.length);
  });

  const refusals: [string, () => Uint8Array, string, RegExp][] = [
    [
      'bytes that are not a zip',
      () => utf8('hello, world, this is text and not a zip archive'),
      'INVALID_TEMPLATE',
      /not a zip/,
    ],
    ['a truncated zip', () => truncatedZip(), 'INVALID_TEMPLATE', /truncated or corrupt/],
    [
      'an encrypted entry (flag bit 0)',
      () => patch(base(), (v, r) => v.setUint16(r[1]! + 8, 1, true)),
      'INVALID_TEMPLATE',
      /encrypted/,
    ],
    [
      'an unsupported method (Deflate64)',
      () => patch(base(), (v, r) => v.setUint16(r[1]! + 10, 9, true)),
      'INVALID_TEMPLATE',
      /method 9/,
    ],
    [
      'duplicate names',
      () => writeRawZip([storedEntry('a.xml', XML), storedEntry('A.xml', XML)]),
      'INVALID_TEMPLATE',
      /duplicate/,
    ],
    [
      'a ".." segment (zip slip)',
      () => writeRawZip([storedEntry('ppt/../../etc/passwd', XML)]),
      'INVALID_TEMPLATE',
      /'\.\.'/,
    ],
    [
      'an absolute name',
      () => writeRawZip([storedEntry('/etc/passwd', XML)]),
      'INVALID_TEMPLATE',
      /absolute/,
    ],
    [
      'a drive-letter name',
      () => writeRawZip([storedEntry('C:/x.xml', XML)]),
      'INVALID_TEMPLATE',
      /absolute/,
    ],
    [
      'a backslash',
      () => writeRawZip([storedEntry('ppt\\slides\\slide1.xml', XML)]),
      'INVALID_TEMPLATE',
      /backslash/,
    ],
    [
      'overlapping entries',
      () => patch(base(), (v, r) => v.setUint32(r[2]! + 42, v.getUint32(r[1]! + 42, true), true)),
      'INVALID_TEMPLATE',
      /overlap|local file header/,
    ],
    [
      'a central directory out of bounds',
      () => patch(base(), (v) => v.setUint32(v.byteLength - 6, 0x7fffff, true)),
      'INVALID_TEMPLATE',
      /out of bounds/,
    ],
    [
      'ZIP64 markers in a small archive',
      () => patch(base(), (v) => v.setUint16(v.byteLength - 12, 0xffff, true)),
      'UNSUPPORTED_TEMPLATE',
      /ZIP64/,
    ],
    [
      '20 000 entries (limit 10 000)',
      () => manyEntriesZip(20_000),
      'LIMIT_EXCEEDED',
      /20\d{3} entries.*maxEntries/,
    ],
    [
      '70 000 entries (ZIP64 record)',
      () => manyEntriesZip(70_000),
      'LIMIT_EXCEEDED',
      /70\d{3} entries.*maxEntries/,
    ],
  ];
  for (const [what, make, code, message] of refusals) {
    it(`refuses ${what} with ${code}`, () => {
      const error = engineErrorOf(() => readZip(make(), DEFAULT_LIMITS));
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
    });
  }

  it('names the part and the limit when a declared size is over maxEntryBytes (at open)', () => {
    const limits = resolveLimits({ maxEntryBytes: 1000 });
    const big = engineErrorOf(() => readZip(writeRawZip([deflated('ppt/big.xml', XML)]), limits));
    expect([big.code, big.path]).toEqual(['LIMIT_EXCEEDED', '/ppt/big.xml']);
    expect(big.message).toMatch(/maxEntryBytes/);
  });

  it('refuses to inflate an entry over the compression ratio, but still copies it raw', () => {
    const zeros = new Uint8Array(2 * 2 ** 20);
    const archive = readZip(writeRawZip([deflated('ppt/media/flat.bmp', zeros)]), DEFAULT_LIMITS);
    const ratio = engineErrorOf(() => archive.inflate('ppt/media/flat.bmp'));
    expect([ratio.code, ratio.path]).toEqual(['LIMIT_EXCEEDED', '/ppt/media/flat.bmp']);
    expect(ratio.message).toMatch(/maxCompressionRatio/);
    expect(archive.totalInflated).toBe(0);
    const copy = readZip(
      writeZip([{ name: 'flat.bmp', from: archive, source: 'ppt/media/flat.bmp' }]),
      DEFAULT_LIMITS,
    );
    expect(Buffer.compare(copy.rawData('flat.bmp'), archive.rawData('ppt/media/flat.bmp'))).toBe(0);
  });

  it('refuses a template over maxArchiveBytes before reading it', () => {
    expect(engineErrorOf(() => readZip(base(), resolveLimits({ maxArchiveBytes: 100 }))).code).toBe(
      'LIMIT_EXCEEDED',
    );
  });

  it('verifies CRC and actual size on inflate: declared values may lie', () => {
    const archive = readZip(
      writeRawZip([deflated('crc.xml', XML, XML.length, 12345), deflated('short.xml', XML, XML.length + 10)]),
      DEFAULT_LIMITS,
    );
    expect(engineErrorOf(() => archive.inflate('crc.xml')).message).toMatch(/CRC/);
    expect(engineErrorOf(() => archive.inflate('short.xml')).message).toMatch(/declares/);
  });

  it('refuses to copy an entry whose compressed data is corrupt, naming it, and copies it once it checks', () => {
    const broken = deflateRawSync(XML);
    broken[Math.floor(broken.length / 2)]! ^= 0xff;
    const source = readZip(
      writeRawZip([
        {
          name: 'ppt/theme/theme1.xml',
          method: 8,
          data: broken,
          crc: crc32(XML),
          uncompressedSize: XML.length,
        },
        deflated('ppt/slides/slide1.xml', XML),
      ]),
      DEFAULT_LIMITS,
    );
    const copy = (name: string) => writeZip([{ name, from: source, source: name }]);
    const error = engineErrorOf(() => copy('ppt/theme/theme1.xml'));
    expect([error.code, error.path]).toEqual(['INVALID_TEMPLATE', '/ppt/theme/theme1.xml']);
    const copied = readZip(copy('ppt/slides/slide1.xml'), DEFAULT_LIMITS);
    expect(new Uint8Array(copied.inflate('ppt/slides/slide1.xml'))).toEqual(XML);
    expect(source.totalInflated).toBe(0); // checking a copied entry does not count as inflating it
  });

  it('stops a lying-size bomb (1 KiB declared, 256 MiB real) at the declared size, with bounded memory', () => {
    const bomb = lyingSizeZipBomb(256 * 2 ** 20, 1024);
    const archive = readZip(bomb, DEFAULT_LIMITS);
    const before = process.memoryUsage().rss;
    const error = engineErrorOf(() => archive.inflate('ppt/slides/slide1.xml'));
    const grown = process.memoryUsage().rss - before;
    expect([error.code, error.path]).toEqual(['LIMIT_EXCEEDED', '/ppt/slides/slide1.xml']);
    expect(grown).toBeLessThan(64 * 2 ** 20);
  });

  it('enforces maxTotalBytes across inflates', () => {
    const zip = writeZip([1, 2, 3].map((n) => ({ name: `p${n}.xml`, data: XML, compress: true })));
    const archive = readZip(zip, resolveLimits({ maxTotalBytes: XML.length * 2 + 1 }));
    archive.inflate('p1.xml');
    archive.inflate('p2.xml');
    const error = engineErrorOf(() => archive.inflate('p3.xml'));
    expect([error.code, error.path]).toEqual(['LIMIT_EXCEEDED', '/p3.xml']);
    expect(error.message).toMatch(/maxTotalBytes/);
  });
});
