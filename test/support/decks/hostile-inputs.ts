/**
 * Hostile inputs for the tests of every layer that accepts a template: the engine must refuse each with
 * a typed error (and the HTTP layer with a 4xx), within bounded time and memory.
 */
import { strToU8, unzipSync, zipSync } from 'fflate';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { layoutsTemplate } from './layouts-template.js';
import { storedEntry, writeZip, type RawZipEntry } from './zip-writer.js';

/** A deck that passes the invariants and the validator: the project's own layouts template. */
const hostileBase = layoutsTemplate;

const GIB = 2 ** 30;

function baseEntries(): Map<string, Uint8Array> {
  return new Map(Object.entries(unzipSync(hostileBase())));
}

function deflatedEntry(name: string, data: Uint8Array): RawZipEntry {
  return { name, method: 8, data: deflateRawSync(data), crc: crc32(data), uncompressedSize: data.length };
}

function asZip(entries: Map<string, Uint8Array>, extra: RawZipEntry[] = []): Uint8Array {
  return writeZip([...[...entries].map(([n, d]) => deflatedEntry(n, d)), ...extra]);
}

// CRC-32 of 2 GiB of zeros, precomputed so the default bomb costs nothing (hostile-inputs.test.ts checks it).
const zeroCrcCache = new Map<number, number>([[2 * GIB, 0x4dbdf21c]]);

/** CRC-32 of `size` zero bytes, computed in 1 MiB steps so nothing big is ever allocated. */
function crcOfZeros(size: number): number {
  const cached = zeroCrcCache.get(size);
  if (cached !== undefined) return cached;
  const chunk = new Uint8Array(2 ** 20);
  let crc = 0;
  for (let left = size; left > 0; left -= chunk.length)
    crc = crc32(left >= chunk.length ? chunk : chunk.subarray(0, left), crc);
  zeroCrcCache.set(size, crc);
  return crc;
}

/**
 * A deflate stream of `size` zero bytes built without ever holding them: one 1 MiB block is compressed
 * with a full flush (byte-aligned, no back-references across it), repeated, then closed with an empty
 * final stored block (RFC 1951 §3.2.4). Roughly 1 KiB of output per MiB of zeros.
 */
function deflatedZeros(size: number): Uint8Array {
  const mib = 2 ** 20;
  if (size % mib !== 0) throw new Error('deflatedZeros: size must be a whole number of MiB');
  const block = deflateRawSync(new Uint8Array(mib), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const finalBlock = Uint8Array.of(0x01, 0x00, 0x00, 0xff, 0xff);
  const count = size / mib;
  const out = new Uint8Array(block.length * count + finalBlock.length);
  for (let i = 0; i < count; i++) out.set(block, i * block.length);
  out.set(finalBlock, block.length * count);
  return out;
}

export interface ZipBombOptions {
  /** Inflated size of the bomb entry; default 2 GiB (still below the 4 GiB ZIP64 threshold). */
  inflatedBytes?: number;
  /** Which entry of the deck is the bomb; default the one slide, which the engine must read. */
  entry?: string;
}

/**
 * A valid-looking .pptx (content types, relationships, all parts present) whose `entry` inflates to
 * `inflatedBytes` zeros; the archive itself is about 2 MiB for 2 GiB. Headers tell the truth, so a
 * reader that trusts declared sizes is caught as surely as one that inflates blindly.
 */
export function zipBomb(options: ZipBombOptions = {}): Uint8Array {
  const size = options.inflatedBytes ?? 2 * GIB;
  const entry = options.entry ?? 'ppt/slides/slide1.xml';
  const entries = baseEntries();
  if (!entries.delete(entry)) throw new Error(`zipBomb: the base deck has no entry ${entry}`);
  const bomb: RawZipEntry = {
    name: entry,
    method: 8,
    data: deflatedZeros(size),
    crc: crcOfZeros(size),
    uncompressedSize: size,
  };
  return asZip(entries, [bomb]);
}

/**
 * The same bomb but the headers lie: they declare `declaredBytes` (small) while the data inflates to
 * `inflatedBytes`. Catches readers that size buffers from the header and then overrun or trust them.
 */
export function lyingSizeZipBomb(inflatedBytes = 256 * 2 ** 20, declaredBytes = 1024): Uint8Array {
  const entries = baseEntries();
  entries.delete('ppt/slides/slide1.xml');
  const data = deflatedZeros(inflatedBytes);
  return asZip(entries, [
    { name: 'ppt/slides/slide1.xml', method: 8, data, crc: 0, uncompressedSize: declaredBytes },
  ]);
}

/** The base deck plus `count` extra (empty, stored) entries; more than 65 535 uses ZIP64 records. */
export function manyEntriesZip(count = 100_000): Uint8Array {
  const extra: RawZipEntry[] = [];
  const empty = new Uint8Array();
  for (let i = 0; i < count; i++) extra.push(storedEntry(`ppt/media/filler${i}.bin`, empty));
  return asZip(baseEntries(), extra);
}

/** The base deck whose slide declares a DTD with nested entities ("billion laughs", 10^9 'lol's). */
export function billionLaughsPptx(): Uint8Array {
  const entries = baseEntries();
  const slide = new TextDecoder().decode(entries.get('ppt/slides/slide1.xml'));
  const levels = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i <= 9; i++) levels.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  const doctype = `<!DOCTYPE p:sld [${levels.join('')}]>`;
  const hostile = slide
    .replace(/(<\?xml[^>]*\?>)/, `$1${doctype}`)
    .replace('<p:cNvPr id="1" name=""/>', '<p:cNvPr id="1" name="&lol9;"/>');
  if (!hostile.includes('&lol9;')) throw new Error('billionLaughsPptx: base slide changed shape');
  entries.set('ppt/slides/slide1.xml', strToU8(hostile));
  return asZip(entries);
}

const WORD_CT =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const WORD_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';
const WORD_DOC =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Not a presentation</w:t></w:r></w:p></w:body></w:document>';

/** A well-formed OPC package that is a Word document, not a presentation. */
export function docxPackage(): Uint8Array {
  return zipSync({
    '[Content_Types].xml': strToU8(WORD_CT),
    '_rels/.rels': strToU8(WORD_RELS),
    'word/document.xml': strToU8(WORD_DOC),
  });
}

/** A ZIP with no package structure at all. */
export function plainZip(): Uint8Array {
  return zipSync({ 'hello.txt': strToU8('hello, this is not a presentation\n') });
}

/** Bytes that are not a ZIP (a PNG signature and some text). */
export function nonZipFile(): Uint8Array {
  return Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...strToU8('definitely not a pptx'));
}

/** A real deck cut short: the central directory and part of the data are gone. */
export function truncatedZip(keepFraction = 0.6): Uint8Array {
  const whole = hostileBase();
  return whole.slice(0, Math.floor(whole.length * keepFraction));
}
