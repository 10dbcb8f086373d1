/**
 * How a part is stored in the output zip, and the content type of last resort. PowerPoint deflates XML and
 * stores media that are already compressed (docs/powerpoint-rules.md "The ZIP container"); every part needs a
 * content type (docs/powerpoint-rules.md "Every part has exactly one content type").
 */
import { CT } from './content-types.js';
import { extensionOf } from './part-names.js';

/**
 * Already compressed: deflating again costs time and gains nothing. Not `fntdata`: a template's (PowerPoint's,
 * MicroType Express compressed) are copied as they are, and the engine writes raw fonts there, which deflate to
 * about half (docs/powerpoint-rules.md "Embedded fonts").
 */
const STORED_EXTENSIONS = new Set([
  'png',
  'jpg',
  'jpeg',
  'jfif',
  'gif',
  'wdp',
  'webp',
  'mp4',
  'm4v',
  'mov',
  'webm',
  'wmv',
  'avi',
  'mp3',
  'm4a',
  'wma',
  'aac',
  'ogg',
  'xlsx',
  'xlsm',
  'docx',
  'pptx',
  'zip',
  'odttf',
]);

/** Defaults for parts that would otherwise have no content type (every part needs one). */
const DEFAULT_TYPES: Record<string, string> = {
  xml: CT.xml,
  rels: CT.relationships,
  png: CT.png,
  jpg: CT.jpeg,
  jpeg: CT.jpeg,
  jfif: CT.jpeg,
  gif: CT.gif,
  bmp: CT.bmp,
  tif: CT.tiff,
  tiff: CT.tiff,
  svg: CT.svg,
  emf: CT.emf,
  wmf: CT.wmf,
  mp4: CT.mp4,
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  wmv: 'video/x-ms-wmv',
  mp3: CT.mp3,
  m4a: 'audio/mp4',
  wav: CT.wav,
  wma: 'audio/x-ms-wma',
  xlsx: CT.spreadsheet,
  bin: CT.oleObject,
  vml: CT.vmlDrawing,
  wdp: 'image/vnd.ms-photo',
};

/** Deflate unless the format is already compressed. */
export function shouldDeflate(partName: string): boolean {
  return !STORED_EXTENSIONS.has(extensionOf(partName));
}

/** The Default to add for an extension the template's [Content_Types].xml does not cover. */
export function fallbackContentType(extension: string): string {
  return DEFAULT_TYPES[extension.toLowerCase()] ?? 'application/octet-stream';
}
