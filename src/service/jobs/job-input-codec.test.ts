import { describe, expect, it } from 'vitest';
import { decodeJobInput, encodeJobInput } from './job-input-codec.js';

describe('stored job input', () => {
  it('round-trips the payload, as a value or as its text, and every file, each with its own buffer', () => {
    const files = new Map([
      ['deck.pptx', new Uint8Array([80, 75, 3, 4, 9])],
      ['Ünïcode logo.png', new Uint8Array(70_000).fill(7)],
      ['empty.bin', new Uint8Array()],
    ]);
    const payload = { presentation: { template: 'deck.pptx', slides: [{ slide_index: 0 }] } };
    const payloadText = JSON.stringify({ ...payload, note: 'Ünïcode ✓' }, null, 2);
    for (const source of [{ payload }, { payloadText }]) {
      const decoded = decodeJobInput(encodeJobInput({ source, files }));
      expect(decoded.source).toEqual(source);
      expect([...decoded.files.keys()]).toEqual([...files.keys()]);
      for (const [name, bytes] of files) expect(decoded.files.get(name)).toEqual(bytes);
      for (const bytes of decoded.files.values())
        expect(bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength).toBe(true);
    }
  });

  it('refuses a truncated blob', () => {
    const blob = encodeJobInput({
      source: { payloadText: '{}' },
      files: new Map([['a', new Uint8Array(10)]]),
    });
    expect(() => decodeJobInput(blob.subarray(0, blob.byteLength - 1))).toThrow(/corrupt/);
    expect(() => decodeJobInput(new Uint8Array(2))).toThrow(/truncated/);
  });
});
