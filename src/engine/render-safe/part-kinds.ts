/**
 * What a part of a deck is, judged by its bytes and never by its name or content type: a renderer's filters
 * sniff content too (LibreOffice draws an SVG stored as `image1.png`, and hands a playlist behind a picture to
 * GStreamer). XML in whatever encoding it is in; the pictures a renderer may draw (raster formats with their
 * size, EMF and WMF); SVG; PostScript (EPS, which LibreOffice hands to Ghostscript); audio, video and playlists;
 * anything else.
 */
import { EngineError } from '../errors.js';
import { storedPixels, type StoredPixels } from '../pictures/stored-pixels.js';
import { localName, parseXml, type XmlDocument } from '../xml/index.js';
import { xmlDocumentText } from '../xml/xml-encoding.js';

export type PartKind =
  | { kind: 'xml'; doc: XmlDocument }
  /** XML that does not parse (or nests too deep): left out, unless a renderer would follow something to it. */
  | { kind: 'unreadable'; error: EngineError }
  | { kind: 'raster'; pixels: StoredPixels }
  | { kind: 'metafile' }
  | { kind: 'svg' }
  | { kind: 'postscript' }
  | { kind: 'media' }
  /** A font file or an Embedded OpenType font part: never given to LibreOffice (embedded-font-files.ts). */
  | { kind: 'font' }
  | { kind: 'other' };

/** Root elements of the XML playlist formats: ASX, SMIL (and WPL, which is SMIL), XSPF. */
const XML_PLAYLISTS = new Set(['asx', 'smil', 'playlist']);
/** The first line of a text playlist: M3U/HLS, PLS, ASX's INI form, RAM and SDP. */
const TEXT_PLAYLIST = /^(?:#extm3u|\[playlist\]|\[reference\]|<asx|<smil|<\?wpl|v=0\s)/i;
/** A line naming a stream or a file: GStreamer reads a plain list of them as a playlist (text/uri-list). */
const URI_LINE = /^(?:[a-z][a-z0-9+.-]*:\/\/|file:|\/\S*$)/i;

/** The kind of the part `partName` whose bytes are `bytes`; XML in an encoding that is not read here throws. */
export function partKind(bytes: Uint8Array, partName: string): PartKind {
  const text = xmlDocumentText(bytes, partName);
  if (text !== null) {
    let doc: XmlDocument;
    try {
      doc = parseXml(text, partName);
    } catch (error) {
      if (error instanceof EngineError) return { kind: 'unreadable', error };
      throw error;
    }
    const root = localName(doc.root.name);
    if (root === 'svg') return { kind: 'svg' };
    if (XML_PLAYLISTS.has(root.toLowerCase())) return { kind: 'media' };
    return { kind: 'xml', doc };
  }
  const pixels = storedPixels(bytes);
  if (pixels) return { kind: 'raster', pixels };
  if (isMetafile(bytes)) return { kind: 'metafile' };
  if (isPostScript(bytes)) return { kind: 'postscript' };
  if (isFontData(bytes)) return { kind: 'font' };
  if (isMedia(bytes) || isTextPlaylist(bytes)) return { kind: 'media' };
  return { kind: 'other' };
}

/** EMF (an EMR_HEADER record with the " EMF" signature) or WMF (placeable, or a standard header). */
export function isMetafile(b: Uint8Array): boolean {
  const emf = b[0] === 1 && b[1] === 0 && b[2] === 0 && b[3] === 0 && ascii(b, 40, 44) === ' EMF';
  const placeable = b[0] === 0xd7 && b[1] === 0xcd && b[2] === 0xc6 && b[3] === 0x9a;
  const wmf = (b[0] === 1 || b[0] === 2) && b[1] === 0 && b[2] === 9 && b[3] === 0;
  return emf || placeable || wmf;
}

/** PostScript ("%!", EPS included) or a DOS EPS binary file (C5 D0 D3 C6). */
export function isPostScript(b: Uint8Array): boolean {
  return (
    (b[0] === 0x25 && b[1] === 0x21) || (b[0] === 0xc5 && b[1] === 0xd0 && b[2] === 0xd3 && b[3] === 0xc6)
  );
}

/**
 * A font: an sfnt (TrueType, OpenType, a collection), a WOFF file, or an Embedded OpenType structure (its magic
 * number 0x504C at offset 34, W3C Member Submission "Embedded OpenType (EOT) File Format").
 */
function isFontData(b: Uint8Array): boolean {
  const sfnt = b[0] === 0 && b[1] === 1 && b[2] === 0 && b[3] === 0;
  const eot =
    b.length > 82 && b[34] === 0x4c && b[35] === 0x50 && (b[10] === 1 || b[10] === 2) && b[11] === 0;
  return sfnt || eot || ['OTTO', 'true', 'ttcf', 'wOFF', 'wOF2'].includes(ascii(b, 0, 4));
}

/** Audio and video containers and streams, by their magic numbers. */
function isMedia(b: Uint8Array): boolean {
  const head4 = ascii(b, 0, 4);
  const riff = head4 === 'RIFF' && ascii(b, 8, 12) !== 'WEBP';
  // ISO base media (MP4, MOV, 3GP, M4A): boxes; the image brands (AVIF, HEIF) are no media.
  const box = ascii(b, 4, 8);
  const isoMedia =
    ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].includes(box) &&
    !(box === 'ftyp' && /avif|avis|heic|heix|heim|heis|mif1|msf1/.test(ascii(b, 8, 32)));
  const mpegAudioFrame = b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0 && b[1] !== 0xff;
  const mpegTransport = b[0] === 0x47 && b[188] === 0x47 && b[376] === 0x47;
  const mpegProgram = b[0] === 0 && b[1] === 0 && b[2] === 1 && (b[3] === 0xba || b[3] === 0xb3);
  return (
    riff ||
    isoMedia ||
    mpegAudioFrame ||
    mpegTransport ||
    mpegProgram ||
    ['OggS', 'fLaC', 'MThd', 'FORM', '.snd', '.RMF', 'caff', 'FLV\x01', '#!AM'].includes(head4) ||
    ascii(b, 0, 3) === 'ID3' ||
    (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) || // EBML: Matroska, WebM
    (b[0] === 0x30 && b[1] === 0x26 && b[2] === 0xb2 && b[3] === 0x75) || // ASF: WMV, WMA
    (b[0] === 0x0b && b[1] === 0x77) // AC-3
  );
}

/** A text playlist, or a text whose first line names a stream or a file. */
function isTextPlaylist(b: Uint8Array): boolean {
  const head = new TextDecoder('latin1')
    .decode(b.subarray(0, 1024))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (TEXT_PLAYLIST.test(head)) return true;
  // eslint-disable-next-line no-control-regex -- a text file holds no control characters but line ends and tabs
  if (/[\u0000-\u0008\u000e-\u001f]/.test(head)) return false;
  const first = head.split(/\r?\n/).find((line) => line.trim() !== '' && !line.startsWith('#'));
  return first !== undefined && URI_LINE.test(first.trim());
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  let out = '';
  for (let i = from; i < Math.min(to, bytes.length); i++) out += String.fromCharCode(bytes[i] ?? 0);
  return out;
}
