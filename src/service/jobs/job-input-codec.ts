/**
 * A job's stored request as one blob: a 4-byte big-endian header length, a JSON header (the jsonData value and
 * each file's name and size), then the files' bytes back to back. One blob keeps submission to a single write.
 */
export interface JobInput {
  payload: unknown;
  files: Map<string, Uint8Array>;
}

interface Header {
  payload: unknown;
  files: { name: string; size: number }[];
}

export function encodeJobInput(input: JobInput): Uint8Array {
  const entries = [...input.files];
  const header: Header = {
    payload: input.payload,
    files: entries.map(([name, bytes]) => ({ name, size: bytes.byteLength })),
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const total = 4 + headerBytes.byteLength + entries.reduce((sum, [, bytes]) => sum + bytes.byteLength, 0);
  const out = new Uint8Array(total);
  new DataView(out.buffer).setUint32(0, headerBytes.byteLength);
  out.set(headerBytes, 4);
  let offset = 4 + headerBytes.byteLength;
  for (const [, bytes] of entries) {
    out.set(bytes, offset);
    offset += bytes.byteLength;
  }
  return out;
}

export function decodeJobInput(blob: Uint8Array): JobInput {
  if (blob.byteLength < 4) throw new Error('stored job input is truncated');
  const headerLength = new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(0);
  const header = JSON.parse(new TextDecoder().decode(blob.subarray(4, 4 + headerLength))) as Header;
  const files = new Map<string, Uint8Array>();
  let offset = 4 + headerLength;
  for (const file of header.files) {
    // slice, not subarray: each file gets its own buffer so the pool can transfer it to a worker.
    files.set(file.name, blob.slice(offset, offset + file.size));
    offset += file.size;
  }
  if (offset !== blob.byteLength) throw new Error('stored job input is corrupt');
  return { payload: header.payload, files };
}
