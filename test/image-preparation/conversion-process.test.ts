/**
 * The conversion process: libvips works where a limit can stop it. A conversion past its time or
 * memory limit has its process killed (gone from the system, not left running) and its picture is refused
 * with a sentence naming the limit; the next conversion gets a new process. The SVGs here skip makeSvgSafe on
 * purpose: they stand for whatever cost its estimate cannot see.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { assessImage, DEFAULT_IMAGE_LIMITS, type PreparedImage } from '../../src/engine/index.js';
import { ConversionProcess } from '../../src/image-preparation/conversion-process.js';
import type { Conversion } from '../../src/image-preparation/conversion-protocol.js';
import {
  filterThroughUsesSvg,
  hugeFlatPng,
  smallRleBmp,
  svgEmbedding,
} from '../support/decks/hostile-images.js';

let converter: ConversionProcess | null = null;
let pids: number[] = [];
afterEach(() => {
  converter?.close();
  pids = [];
});

function start(timeoutMs: number, memoryMb: number): ConversionProcess {
  converter = new ConversionProcess({ timeoutMs, memoryMb }, (pid) => {
    if (pid !== null) pids.push(pid);
  });
  return converter;
}

function conversionOf(bytes: Uint8Array): Conversion {
  const assessed = assessImage(bytes, 'picture', DEFAULT_IMAGE_LIMITS);
  if (assessed.kind !== 'convert') throw new Error(`expected a conversion, got ${assessed.kind}`);
  return assessed;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function convert(process: ConversionProcess, label: string, bytes: Uint8Array) {
  return process.convert({ bytes, conversion: conversionOf(bytes), label, limits: DEFAULT_IMAGE_LIMITS });
}

describe('conversion process', () => {
  it('converts in a process of its own, kept for the next image', async () => {
    const converter = start(30_000, 1024);
    const first = (await convert(converter, 'picture "a.bmp"', smallRleBmp())) as PreparedImage;
    expect(first).toMatchObject({ type: 'png', width: 4, height: 2 });
    await convert(converter, 'picture "b.bmp"', smallRleBmp());
    expect(pids).toHaveLength(1);
    expect(pids[0]).not.toBe(process.pid);
  }, 30_000);

  it('kills a conversion past its time limit and refuses the picture; the next one gets a new process', async () => {
    const converter = start(1500, 1024);
    const started = Date.now();
    const outcome = await convert(converter, 'picture "slow.svg"', filterThroughUsesSvg(400));
    expect(outcome).toEqual({
      refused: 'picture "slow.svg" took longer than 1.5 s to convert and was stopped',
    });
    expect(Date.now() - started).toBeLessThan(5000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive(pids[0]!)).toBe(false);
    expect(await convert(converter, 'picture "ok.bmp"', smallRleBmp())).toMatchObject({ type: 'png' });
    expect(pids).toHaveLength(2);
  }, 30_000);

  it('kills a conversion past its memory limit and refuses the picture', async () => {
    // 8 000 × 8 000 decoded by librsvg is 256 MB of pixels, over a 200 MB limit.
    const converter = start(30_000, 200);
    const outcome = await convert(converter, 'picture "big.svg"', svgEmbedding(hugeFlatPng(8000, 8000)));
    expect(outcome).toEqual({
      refused: 'picture "big.svg" needed more than 200 MB of memory to convert and was stopped',
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive(pids[0]!)).toBe(false);
  }, 30_000);
});
