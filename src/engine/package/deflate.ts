/**
 * Raw deflate for many small parts in a row: one zlib stream per thread and level, reset between parts.
 *
 * `deflateRawSync` sets up and tears down a whole zlib stream per call (window, hash tables, a stream object).
 * For a deck, that set-up is most of the cost: 1 000 slide parts of ~1.4 KB took 75–90 ms in a fresh process
 * on this project's 2-core machine, and 21 ms through one stream reset between parts. Node has no public
 * synchronous API for a reusable stream, so this drives the stream's native handle exactly as Node's own
 * `deflateRawSync` does (lib/zlib.js, `processChunkSync`), minus the closing. Where that handle is not there
 * (a future Node), it falls back to `deflateRawSync`; a test pins that the fast path is in use.
 */
import { constants, crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

/** `flush` is Z_FINISH for a whole stream, Z_SYNC_FLUSH for a head that other bytes continue. */
type Deflate = (data: Uint8Array, flush: number) => Uint8Array;

interface NativeZlib {
  writeSync(
    flush: number,
    input: Uint8Array,
    inOffset: number,
    inLength: number,
    output: Uint8Array,
    outOffset: number,
    outLength: number,
  ): void;
  reset(): void;
}

/** What Node's zlib stream keeps internally: its native handle and the [availOut, availIn] it reports. */
interface StreamInternals {
  _handle?: Partial<NativeZlib>;
  _writeState?: unknown;
  destroyed: boolean;
  close(): void;
}

const OUTPUT_CHUNK = 64 * 1024;
const deflaters = new Map<number, { deflate: Deflate; reused: boolean }>();

function deflaterFor(level: number): { deflate: Deflate; reused: boolean } {
  let found = deflaters.get(level);
  if (!found) {
    const reusable = reusableDeflater(level);
    found = reusable
      ? { deflate: reusable, reused: true }
      : { deflate: (input, flush) => deflateRawSync(input, { level, finishFlush: flush }), reused: false };
    deflaters.set(level, found);
  }
  return found;
}

/** `data` as a raw deflate stream (no zlib header), at zlib `level`. */
export function deflateRaw(data: Uint8Array, level: number): Uint8Array {
  return run(data, level, constants.Z_FINISH);
}

/**
 * The start of a deflated part that many parts share, deflated once: its blocks end on a byte boundary with no
 * final block (Z_SYNC_FLUSH), so any raw deflate stream may follow it. The tail stream never refers back into
 * the head (it is compressed on its own), which RFC 1951 allows: back references are a compressor's choice.
 */
export interface DeflatedHead {
  deflated: Uint8Array;
  /** CRC-32 and length of the uncompressed head, to continue the part's CRC over its tail. */
  crc: number;
  length: number;
}

export function deflateHead(data: Uint8Array, level: number): DeflatedHead {
  return { deflated: run(data, level, constants.Z_SYNC_FLUSH), crc: crc32(data), length: data.length };
}

function run(data: Uint8Array, level: number, flush: number): Uint8Array {
  try {
    return deflaterFor(level).deflate(data, flush);
  } catch (error) {
    // A stream that failed half-way is not reused.
    deflaters.delete(level);
    throw error;
  }
}

/** True when `deflateRaw` at `level` reuses one stream (Node's internals as expected), false when it falls back. */
export function deflateReusesStream(level: number): boolean {
  return deflaterFor(level).reused;
}

function reusableDeflater(level: number): Deflate | undefined {
  const stream = createDeflateRaw({ level }) as unknown as StreamInternals;
  const handle = stream._handle;
  const state = stream._writeState;
  if (
    typeof handle?.writeSync !== 'function' ||
    typeof handle.reset !== 'function' ||
    !(state instanceof Uint32Array) ||
    state.length < 2
  ) {
    stream.close();
    return undefined;
  }
  const native = handle as NativeZlib;
  const output = Buffer.allocUnsafe(OUTPUT_CHUNK);
  return (data, flush) => {
    const chunks: Buffer[] = [];
    let inOffset = 0;
    let inLength = data.length;
    let outLeft: number;
    do {
      native.writeSync(flush, data, inOffset, inLength, output, 0, OUTPUT_CHUNK);
      // zlib reports errors through the stream, which destroys itself; deflating memory only fails on OOM.
      if (stream.destroyed) throw new Error('zlib failed while deflating a part');
      outLeft = state[0] ?? 0;
      const inLeft = state[1] ?? 0;
      chunks.push(Buffer.from(output.subarray(0, OUTPUT_CHUNK - outLeft)));
      inOffset += inLength - inLeft;
      inLength = inLeft;
      // With Z_FINISH or Z_SYNC_FLUSH, output space left over means zlib has written everything.
    } while (outLeft === 0);
    native.reset();
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  };
}
