import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { expectValidPptx } from '../../../test/support/checks/expect-valid-pptx.js';
import { generate } from '../../engine/index.js';
import { writingTo } from './file-sink.js';

const sample = new Uint8Array(
  readFileSync(new URL('../../../examples/sample-template.pptx', import.meta.url)),
);
const file = join(tmpdir(), `deckforge-file-sink-${process.pid}.pptx`);
afterAll(() => rmSync(file, { force: true }));

/** Enough slides that the zip writer fills its 256 KB chunk and refills it (zip-writer.ts, `flush`). */
function build(memoryBytes: number): Uint8Array {
  const payload = {
    presentation: {
      template: 'sample.pptx',
      slides: Array.from({ length: 400 }, (_, i) => ({
        slide_index: 0,
        shapes: [{ name: 'Title', content: `Slide ${i + 1}` }],
      })),
    },
  };
  const { bytes } = writingTo(
    file,
    (sink) => generate({ payload, files: new Map([['sample.pptx', sample]]), output: sink }),
    memoryBytes,
  );
  return bytes ?? new Uint8Array(readFileSync(file));
}

it('a deck kept in memory is byte for byte the deck written to the file, however many chunks it took', async () => {
  const written = build(0);
  expect(written.length).toBeGreaterThan(256 * 1024);
  const kept = build(64 * 1024 * 1024);
  expect(Buffer.from(kept).equals(Buffer.from(written))).toBe(true);
  await expectValidPptx(kept, sample);
});
