/**
 * Where a picture's bytes come from (docs/payload-pictures.md): an uploaded file by its exact name, a URL the
 * caller fetched beforehand (in `files` under the URL), or a `data:` URI in the payload itself. The engine does
 * no I/O: it only looks up and decodes.
 */
import { EngineError } from '../errors.js';
import { isHttpUrl } from '../payload/picture-source-uses.js';
import {
  assessImage,
  DEFAULT_IMAGE_LIMITS,
  formatName,
  isRefusal,
  type ImageLimits,
  type ImageOutcome,
  type PreparedImage,
} from './prepared-image.js';

const DATA_URI = /^data:([^,]*?),/i;
/** What a reader takes for a data: URI, well-formed or not: a malformed one is named as one, not as a file. */
const DATA_SCHEME = /^data:/i;
const BASE64_CHAR = /[A-Za-z0-9+/_\-\s=]/;

export function isDataUri(source: string): boolean {
  return DATA_URI.test(source);
}

/** The bytes `source` names, or undefined when it names nothing the caller gave (or a malformed data: URI). */
export function sourceBytes(source: string, files: ReadonlyMap<string, Uint8Array>): Uint8Array | undefined {
  if (isDataUri(source)) return decodeDataUri(source) ?? undefined;
  return files.get(source);
}

/** How messages name a source: a data: URI is not repeated (it can be megabytes long). */
export function sourceLabel(source: string): string {
  if (DATA_SCHEME.test(source)) return 'the data: URI';
  return isHttpUrl(source) ? source : `"${source}"`;
}

/** RFC 2397: `data:[<mediatype>][;base64],<data>`; the media type is not trusted (the bytes are sniffed). */
export function decodeDataUri(uri: string): Uint8Array | null {
  const match = DATA_URI.exec(uri);
  if (!match) return null;
  const data = uri.slice(match[0].length);
  if (/;base64$/i.test(match[1] ?? '')) {
    const clean = data.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
    if (!/^[A-Za-z0-9+/_\-\s]*=*\s*$/.test(clean)) return null;
    return new Uint8Array(Buffer.from(clean, 'base64'));
  }
  return percentDecode(data);
}

/** What is wrong with a data: URI `decodeDataUri` refused. */
function dataUriProblem(uri: string): string {
  const match = DATA_URI.exec(uri);
  if (!match) return 'it has no comma before its data';
  const data = uri
    .slice(match[0].length)
    .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const bad = [...data].findIndex((c) => !BASE64_CHAR.test(c));
  if (bad >= 0) return `it says ;base64 but character ${bad + 1} of its data, "${data[bad]}", is not base64`;
  return 'its base64 data has "=" padding before the end';
}

function percentDecode(text: string): Uint8Array {
  const out: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '%' && /^[0-9a-f]{2}$/i.test(text.slice(i + 1, i + 3))) {
      out.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      for (const byte of encoder.encode(c)) out.push(byte);
    }
  }
  return Uint8Array.from(out);
}

/**
 * The images of one request, looked up once per source however often the payload uses it: a prepared image
 * from the preparation step when there is one, else the bytes themselves when they can be stored as they are.
 */
export class PictureImages {
  private readonly resolved = new Map<string, PreparedImage>();

  constructor(
    private readonly files: ReadonlyMap<string, Uint8Array>,
    private readonly prepared: ReadonlyMap<string, ImageOutcome> = new Map(),
    private readonly limits: ImageLimits = DEFAULT_IMAGE_LIMITS,
  ) {}

  /** Whether `name` is the name of an uploaded file (not a URL fetched for the request). */
  isUploadedFile(name: string): boolean {
    return this.files.has(name) && !isHttpUrl(name);
  }

  /** Every source an image was looked up for. */
  usedSources(): ReadonlySet<string> {
    return new Set(this.resolved.keys());
  }

  /** The image `source` names; `path` is the payload field that names it, for the error. */
  get(source: string, path: string): PreparedImage {
    const known = this.resolved.get(source);
    if (known) return known;
    const image = this.resolve(source, path);
    this.resolved.set(source, image);
    return image;
  }

  private resolve(source: string, path: string): PreparedImage {
    const label = sourceLabel(source);
    const prepared = this.prepared.get(source);
    if (prepared) {
      if (isRefusal(prepared)) throw new EngineError('INVALID_IMAGE', prepared.refused, path);
      return prepared;
    }
    const bytes = sourceBytes(source, this.files);
    if (!bytes) throw new EngineError('MISSING_FILE', this.missing(source), path);
    const assessed = assessImage(bytes, `picture ${label}`, this.limits);
    if (assessed.kind === 'refused') throw new EngineError('INVALID_IMAGE', assessed.message, path);
    if (assessed.kind === 'convert') {
      const what =
        assessed.header.orientation !== 1
          ? 'a JPEG turned by its EXIF orientation'
          : `a ${formatName(assessed.format)} image`;
      throw new EngineError(
        'INVALID_IMAGE',
        `picture ${label} is ${what}: the engine stores PNG, JPEG and GIF as they are, and other images ` +
          'must go through the image preparation step first (the service and the CLI do this)',
        path,
      );
    }
    return assessed.image;
  }

  private missing(source: string): string {
    return missingSourceMessage(source, this.files);
  }
}

/** Why `source` names no bytes: a malformed data: URI, a URL not fetched, or a file not uploaded. */
export function missingSourceMessage(source: string, files: ReadonlyMap<string, Uint8Array>): string {
  if (DATA_SCHEME.test(source))
    return `the data: URI is malformed: ${dataUriProblem(source)} (expected data:[<type>][;base64],<data>)`;
  if (isHttpUrl(source)) return `picture URL ${source} was not fetched`;
  const names = [...files.keys()]
    .filter((n) => !isHttpUrl(n))
    .map((n) => `"${n}"`)
    .join(', ');
  return `picture "${source}" is not among the uploaded files (uploaded: ${names || 'none'}); the name must match exactly`;
}
