import { randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflateRaw, deflateReusesStream } from './deflate.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('deflateRaw', () => {
  it('reuses one zlib stream on the Node versions we support (the fallback is several times slower)', () => {
    expect(deflateReusesStream(1)).toBe(true);
  });

  it('gives the bytes deflateRawSync gives, part after part through the same stream', () => {
    const parts = [
      utf8('<p:sld>'.repeat(300)),
      new Uint8Array(0),
      utf8('x'),
      utf8('<a:t>Hello</a:t>'.repeat(5000)),
      utf8('<p:sld>'.repeat(300)),
    ];
    for (const level of [1, 6]) {
      for (const part of parts) {
        const deflated = deflateRaw(part, level);
        expect(Buffer.compare(deflated, deflateRawSync(part, { level }))).toBe(0);
        expect(Buffer.compare(inflateRawSync(deflated), part)).toBe(0);
      }
    }
  });

  it('handles output larger than its 64 KiB output chunk and input it cannot compress', () => {
    const noise = randomBytes(300_000);
    const deflated = deflateRaw(noise, 1);
    expect(deflated.length).toBeGreaterThan(64 * 1024);
    expect(Buffer.compare(inflateRawSync(deflated), noise)).toBe(0);
    // The stream was reset properly: the next part does not carry state over.
    const next = utf8('after noise'.repeat(100));
    expect(Buffer.compare(inflateRawSync(deflateRaw(next, 1)), next)).toBe(0);
  });

  it('returns bytes that later calls do not overwrite', () => {
    const first = deflateRaw(utf8('first part '.repeat(50)), 1);
    const copy = Buffer.from(first);
    deflateRaw(utf8('second part, different '.repeat(80)), 1);
    expect(Buffer.compare(first, copy)).toBe(0);
  });
});
