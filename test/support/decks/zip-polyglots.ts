/**
 * Files that are more than one ZIP archive, made from real decks (docs/security.md, "What LibreOffice gets"): two
 * decks each with its own central directory and end record, a deck behind another file or followed by one, a
 * local header that disagrees with its central record. Two readers can each see another deck in such a file.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { assertRunningFromSource } from '../checks/source-guard.js';

assertRunningFromSource(import.meta.url);

/**
 * Two decks in one file, each with its own central directory and end record (`shown` first, `hidden` last).
 * Deckforge's reader takes the last end record whose comment fits in the file: `shown`'s, whose comment runs to
 * the end. LibreOffice 7.4 takes the last end record in the file: `hidden`'s, whose comment length does not fit.
 */
export function twoEndRecords(shown: Uint8Array, hidden: Uint8Array): Uint8Array {
  const a = entriesOf(shown, 'a');
  const b = entriesOf(hidden, 'b');
  const locals: Uint8Array[] = [];
  let offset = 0;
  const offsets = new Map<string, number>();
  for (const entry of [...a, ...b]) {
    offsets.set(entry.key, offset);
    locals.push(entry.local);
    offset += entry.local.length;
  }
  const directory = (entries: typeof a): Uint8Array =>
    concat(entries.map((entry) => entry.central(offsets.get(entry.key) as number)));
  const cdA = directory(a);
  const cdB = directory(b);
  const endB = endRecord(b.length, cdB.length, offset + cdA.length + 22, 0xffff);
  const tail = concat([cdB, endB]);
  const endA = endRecord(a.length, cdA.length, offset, tail.length);
  return concat([...locals, cdA, endA, tail]);
}

interface RawEntry {
  key: string;
  local: Uint8Array;
  central: (offset: number) => Uint8Array;
}

function entriesOf(deck: Uint8Array, tag: string): RawEntry[] {
  return Object.entries(unzipSync(deck)).map(([name, data]) => {
    const nameBytes = strToU8(name);
    const packed = deflateRawSync(data);
    const crc = crc32(data);
    const local = new Uint8Array(30 + nameBytes.length + packed.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, 8, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, packed.length, true);
    lv.setUint32(22, data.length, true);
    lv.setUint16(26, nameBytes.length, true);
    local.set(nameBytes, 30);
    local.set(packed, 30 + nameBytes.length);
    return {
      key: `${tag}:${name}`,
      local,
      central: (offset) => {
        const record = new Uint8Array(46 + nameBytes.length);
        const cv = new DataView(record.buffer);
        cv.setUint32(0, 0x02014b50, true);
        cv.setUint16(4, 20, true);
        cv.setUint16(6, 20, true);
        cv.setUint16(10, 8, true);
        cv.setUint32(16, crc, true);
        cv.setUint32(20, packed.length, true);
        cv.setUint32(24, data.length, true);
        cv.setUint16(28, nameBytes.length, true);
        cv.setUint32(42, offset, true);
        record.set(nameBytes, 46);
        return record;
      },
    };
  });
}

function endRecord(count: number, size: number, offset: number, commentLength: number): Uint8Array {
  const record = new Uint8Array(22);
  const view = new DataView(record.buffer);
  view.setUint32(0, 0x06054b50, true);
  view.setUint16(8, count, true);
  view.setUint16(10, count, true);
  view.setUint32(12, size, true);
  view.setUint32(16, offset, true);
  view.setUint16(20, commentLength, true);
  return record;
}

/**
 * `junk` (another file) and then `bytes`, its offsets moved by the junk's length, as a self-extracting archive
 * or a PDF/ZIP polyglot is made: a reader that trusts the offsets reads the deck, one that starts at the first
 * byte reads the other file.
 */
export function dataBefore(bytes: Uint8Array, junk: Uint8Array): Uint8Array {
  const out = concat([junk, bytes]);
  const view = new DataView(out.buffer);
  let end = out.length - 22;
  while (view.getUint32(end, true) !== 0x06054b50) end--;
  const count = view.getUint16(end + 10, true);
  let pos = view.getUint32(end + 16, true) + junk.length;
  view.setUint32(end + 16, pos, true);
  for (let i = 0; i < count; i++) {
    view.setUint32(pos + 42, view.getUint32(pos + 42, true) + junk.length, true);
    pos +=
      46 + view.getUint16(pos + 28, true) + view.getUint16(pos + 30, true) + view.getUint16(pos + 32, true);
  }
  return out;
}

/** `bytes` with `junk` after its end record. */
export function dataAfter(bytes: Uint8Array, junk: Uint8Array): Uint8Array {
  return concat([bytes, junk]);
}

/** `bytes` (one stored entry's deck, from zipSync with level 0) with the first local header's name changed. */
export function lyingLocalHeader(bytes: Uint8Array): Uint8Array {
  const out = Uint8Array.from(bytes);
  const nameLength = new DataView(out.buffer).getUint16(26, true);
  out[30 + nameLength - 1] = (out[30 + nameLength - 1] as number) ^ 0x20;
  return out;
}

/** A deck's slide parts as zipSync writes them, entries stored (for local-header surgery). */
export function stored(bytes: Uint8Array): Uint8Array {
  return zipSync(unzipSync(bytes), { level: 0 });
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
