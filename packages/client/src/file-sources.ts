/**
 * Templates and pictures handed to the client: a path on disk (Node only), bytes, a Blob, or an http(s) URL
 * the client downloads itself (so the URL may be one only the caller can reach). Everything becomes a Blob,
 * which fetch's FormData uploads, and which can be sent again when a request is retried.
 */

/** A path (Node only), an http(s) URL (a `URL` or a string starting with http:// or https://), bytes or a Blob. */
export type FileSource = string | URL | Uint8Array | ArrayBuffer | Blob;

const HTTP_URL = /^https?:\/\//i;

// A variable specifier keeps browser bundlers from trying to resolve Node's module: only a path needs it.
const NODE_FS = 'node:fs';

async function fromPath(path: string): Promise<Blob> {
  const fs = (await import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_FS)) as {
    openAsBlob(path: string): Promise<Blob>;
  };
  // openAsBlob reads the file when it is sent, so a large template is not held in memory twice.
  return fs.openAsBlob(path);
}

async function fromUrl(url: URL, fetchImpl: typeof fetch): Promise<Blob> {
  const response = await fetchImpl(url);
  if (!response.ok) throw new Error(`downloading ${url.href} answered ${response.status}`);
  return response.blob();
}

export async function toBlob(source: FileSource, fetchImpl: typeof fetch): Promise<Blob> {
  if (source instanceof Blob) return source;
  if (source instanceof URL) return fromUrl(source, fetchImpl);
  if (typeof source === 'string') {
    return HTTP_URL.test(source) ? fromUrl(new URL(source), fetchImpl) : fromPath(source);
  }
  // A copy of the bytes' own view: a Node Buffer may be a window into a larger shared pool.
  const bytes = source instanceof Uint8Array ? source : new Uint8Array(source);
  return new Blob([bytes.slice()]);
}
