/**
 * A job's stored request as one blob: a 4-byte big-endian header length, a JSON header (each file's name and
 * size, the jsonData text's length in UTF-8 bytes, or the jsonData value when a JSON body carried one), then the
 * jsonData text and the files' bytes back to back. One blob keeps submission to a single write; the text is
 * stored as it came and parsed on a generation thread when the job runs (docs/security.md, "Nothing of one
 * request blocks the others"), never on the main thread.
 */
import type { PayloadSource } from '../ports/index.js';

export interface JobInput {
  source: PayloadSource;
  files: Map<string, Uint8Array>;
}

interface Header {
  /** The jsonData value, when it came as one. */
  payload?: unknown;
  /** UTF-8 bytes of the jsonData text that follow the header, when it came as text. */
  payloadTextBytes?: number;
  files: { name: string; size: number }[];
}

export function encodeJobInput(input: JobInput): Uint8Array {
  const entries = [...input.files];
  const { payloadText } = input.source;
  const text = payloadText === undefined ? null : new TextEncoder().encode(payloadText);
  const header: Header = {
    ...(text === null ? { payload: input.source.payload } : { payloadTextBytes: text.byteLength }),
    files: entries.map(([name, bytes]) => ({ name, size: bytes.byteLength })),
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const parts = [headerBytes, ...(text === null ? [] : [text]), ...entries.map(([, bytes]) => bytes)];
  const out = new Uint8Array(4 + parts.reduce((sum, bytes) => sum + bytes.byteLength, 0));
  new DataView(out.buffer).setUint32(0, headerBytes.byteLength);
  let offset = 4;
  for (const bytes of parts) {
    out.set(bytes, offset);
    offset += bytes.byteLength;
  }
  return out;
}

export function decodeJobInput(blob: Uint8Array): JobInput {
  if (blob.byteLength < 4) throw new Error('stored job input is truncated');
  const headerLength = new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(0);
  const header = JSON.parse(new TextDecoder().decode(blob.subarray(4, 4 + headerLength))) as Header;
  let offset = 4 + headerLength;
  let source: PayloadSource = { payload: header.payload };
  if (header.payloadTextBytes !== undefined) {
    const end = offset + header.payloadTextBytes;
    source = { payloadText: new TextDecoder().decode(blob.subarray(offset, end)) };
    offset = end;
  }
  const files = new Map<string, Uint8Array>();
  for (const file of header.files) {
    // slice, not subarray: each file gets its own buffer so the pool can transfer it to a worker.
    files.set(file.name, blob.slice(offset, offset + file.size));
    offset += file.size;
  }
  if (offset !== blob.byteLength) throw new Error('stored job input is corrupt');
  return { source, files };
}
