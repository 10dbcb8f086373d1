/**
 * `presentation.fonts` read into the families the deck embeds (docs/payload.md "Brand"; docs/powerpoint-rules.md
 * "Embedded fonts"): each file checked as strictly as an image (its size, then font-file.ts), refused with the
 * reason when its licence forbids embedding, and grouped by the family name inside it (name ID 1) into one
 * `p:embeddedFont` with up to four faces, placed by the style the font declares (OS/2 fsSelection).
 */
import { EngineError, type Warning } from '../errors.js';
import { MAX_LISTED_ERRORS, oneError } from '../error-list.js';
import type { FontRequest } from '../payload/model.js';
import type { TypefaceDetails } from '../theme/theme-change.js';
import {
  embeddingRefusal,
  FontFileError,
  isPreviewAndPrintOnly,
  readFontFile,
  type FontFace,
} from './font-file.js';

/** The most bytes one font file may have: the image limit (a CJK font is 5 to 20 MB). */
export const MAX_FONT_BYTES = 25 * 1024 * 1024;

/** CT_EmbeddedFontListEntry's faces, in their schema order. */
export type FaceSlot = 'regular' | 'bold' | 'italic' | 'boldItalic';
const SLOT_ORDER: readonly FaceSlot[] = ['regular', 'bold', 'italic', 'boldItalic'];

export interface EmbeddedFace {
  slot: FaceSlot;
  face: FontFace;
  /** The font file as uploaded. */
  bytes: Uint8Array;
  path: string;
}

export interface EmbeddedFamily {
  /** The family as the font names it: what `p:font/@typeface`, the theme and runs write. */
  typeface: string;
  /** Faces in schema order (regular, bold, italic, bold italic), at most one each. */
  faces: EmbeddedFace[];
  /** `p:font`'s (and a theme font's) attributes beyond the name. */
  attributes: TypefaceDetails;
}

/** Reads and groups the fonts; throws every problem at once (a file missing, not a font, licensed against it). */
export function readEmbeddedFonts(
  requests: readonly FontRequest[],
  files: ReadonlyMap<string, Uint8Array>,
  warnings: Warning[],
): EmbeddedFamily[] {
  const errors: EngineError[] = [];
  const families = new Map<string, EmbeddedFamily>();
  const seenFiles = new Map<string, string>();
  for (const request of requests) {
    if (errors.length >= MAX_LISTED_ERRORS) break;
    const { path } = request;
    const error = (code: EngineError['code'], message: string): void => {
      errors.push(new EngineError(code, message, path));
    };
    const earlier = seenFiles.get(request.file);
    if (earlier !== undefined) {
      error('INVALID_PAYLOAD', `font file "${request.file}" is already embedded by ${earlier}`);
      continue;
    }
    seenFiles.set(request.file, request.path);
    const bytes = files.get(request.file);
    if (bytes === undefined) {
      const names = [...files.keys()].map((n) => `"${n}"`).join(', ') || 'none';
      error(
        'MISSING_FILE',
        `font file "${request.file}" is not among the uploaded files (uploaded: ${names})`,
      );
      continue;
    }
    const label = `font file "${request.file}"`;
    if (bytes.byteLength > MAX_FONT_BYTES) {
      error(
        'INVALID_FONT',
        `${label} is ${megabytes(bytes.byteLength)}, over the ${megabytes(MAX_FONT_BYTES)} limit for one font`,
      );
      continue;
    }
    let face: FontFace;
    try {
      face = readFontFile(bytes);
    } catch (problem) {
      if (!(problem instanceof FontFileError)) throw problem;
      error('INVALID_FONT', `${label} ${problem.message}`);
      continue;
    }
    const refusal = embeddingRefusal(face.fsType);
    if (refusal !== null) {
      error('INVALID_FONT', `${label} (${face.fullName}) cannot be embedded: ${refusal}`);
      continue;
    }
    if (isPreviewAndPrintOnly(face.fsType))
      warnings.push({
        path,
        message: `${label} (${face.fullName}) allows Preview & Print embedding only (OS/2 fsType 0x0004): PowerPoint opens the deck read-only where the font is not installed`,
      });
    const slot: FaceSlot = face.bold
      ? face.italic
        ? 'boldItalic'
        : 'bold'
      : face.italic
        ? 'italic'
        : 'regular';
    const key = face.family.toLowerCase();
    let family = families.get(key);
    if (!family) {
      family = { typeface: face.family, faces: [], attributes: typefaceDetails(face) };
      families.set(key, family);
    }
    const taken = family.faces.find((f) => f.slot === slot);
    if (taken) {
      error(
        'INVALID_PAYLOAD',
        `${label} is the ${slotName(slot)} face of "${face.family}", and so is the file of ${taken.path}; a family embeds one file per style`,
      );
      continue;
    }
    family.faces.push({ slot, face, bytes, path });
    // The regular face describes the family best.
    if (slot === 'regular') family.attributes = typefaceDetails(face);
  }
  const error = oneError(errors);
  if (error) throw error;
  for (const family of families.values())
    family.faces.sort((a, b) => SLOT_ORDER.indexOf(a.slot) - SLOT_ORDER.indexOf(b.slot));
  return [...families.values()];
}

function slotName(slot: FaceSlot): string {
  return slot === 'boldItalic' ? 'bold italic' : slot;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * `panose`, `pitchFamily` and `charset` as GDI reports them for the font (CT_TextFont; substitution hints where
 * the font is missing): the pitch and family from the PANOSE classification and `post`, the character set from
 * the first code page the font covers.
 */
export function typefaceDetails(face: FontFace): TypefaceDetails {
  const panose = face.panose.some((b) => b !== 0)
    ? face.panose.map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join('')
    : undefined;
  const [familyType = 0, serifStyle = 0, , proportion = 0] = face.panose;
  const fixed = face.fixedPitch || (familyType === 2 && proportion === 9);
  // FF_DONTCARE 0x00, FF_ROMAN 0x10, FF_SWISS 0x20, FF_MODERN 0x30, FF_SCRIPT 0x40, FF_DECORATIVE 0x50.
  let family = 0x00;
  if (fixed) family = 0x30;
  else if (familyType === 2)
    family = serifStyle >= 11 && serifStyle <= 15 ? 0x20 : serifStyle >= 2 ? 0x10 : 0x00;
  else if (familyType === 3) family = 0x40;
  else if (familyType === 4) family = 0x50;
  const pitch = fixed ? 1 : 2; // FIXED_PITCH, VARIABLE_PITCH
  return {
    ...(panose !== undefined ? { panose } : {}),
    pitchFamily: String(family | pitch),
    charset: String(charsetOf(face.codePageRanges[0])),
  };
}

/** OS/2 ulCodePageRange1 bit → GDI character set, written as CT_TextFont's signed byte. */
const CHARSETS: readonly [bit: number, charset: number][] = [
  [0, 0], // Latin 1: ANSI_CHARSET
  [1, -18], // Latin 2: EASTEUROPE_CHARSET (238)
  [2, -52], // Cyrillic: RUSSIAN_CHARSET (204)
  [3, -95], // Greek: GREEK_CHARSET (161)
  [4, -94], // Turkish: TURKISH_CHARSET (162)
  [5, -79], // Hebrew: HEBREW_CHARSET (177)
  [6, -78], // Arabic: ARABIC_CHARSET (178)
  [7, -70], // Baltic: BALTIC_CHARSET (186)
  [8, -93], // Vietnamese: VIETNAMESE_CHARSET (163)
  [16, -34], // Thai: THAI_CHARSET (222)
  [17, -128], // Japanese: SHIFTJIS_CHARSET (128)
  [18, -122], // Simplified Chinese: GB2312_CHARSET (134)
  [19, -127], // Korean Wansung: HANGUL_CHARSET (129)
  [20, -120], // Traditional Chinese: CHINESEBIG5_CHARSET (136)
  [21, -126], // Korean Johab: JOHAB_CHARSET (130)
  [31, 2], // Symbol: SYMBOL_CHARSET
];

function charsetOf(codePages: number): number {
  for (const [bit, charset] of CHARSETS) if ((codePages >>> bit) & 1) return charset;
  return 1; // DEFAULT_CHARSET
}
