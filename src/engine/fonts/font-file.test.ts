import { describe, expect, it } from 'vitest';
import {
  systemFont,
  tables,
  withFsType,
  withSignature,
  withTableLength,
  withTableRenamed,
} from '../../../test/support/decks/test-fonts.js';
import { readEot } from '../../../test/support/readers/eot-reading.js';
import { eotFontData } from './eot.js';
import { embeddingRefusal, isPreviewAndPrintOnly, readFontFile } from './font-file.js';

const SERIF = systemFont('LiberationSerif-Regular.ttf');
const SERIF_BOLD_ITALIC = systemFont('LiberationSerif-BoldItalic.ttf');

function refusal(bytes: Uint8Array): string {
  try {
    readFontFile(bytes);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the font was read');
}

describe('readFontFile', () => {
  it('reads the family, style and licence of Debian fonts from their name, OS/2 and head tables', () => {
    expect(readFontFile(SERIF)).toMatchObject({
      family: 'Liberation Serif',
      subfamily: 'Regular',
      fullName: 'Liberation Serif',
      bold: false,
      italic: false,
      weight: 400,
      fsType: 0,
      outlines: 'truetype',
      fixedPitch: false,
    });
    expect(readFontFile(SERIF_BOLD_ITALIC)).toMatchObject({
      family: 'Liberation Serif',
      subfamily: 'Bold Italic',
      bold: true,
      italic: true,
      weight: 700,
    });
    expect(readFontFile(systemFont('LiberationMono-Regular.ttf')).fixedPitch).toBe(true);
    expect(readFontFile(systemFont('Carlito-Bold.ttf'))).toMatchObject({ family: 'Carlito', bold: true });
  });

  it('refuses what is not one static TrueType or CFF font, saying what it is', () => {
    expect(refusal(new Uint8Array(0))).toMatch(/is not a font/);
    expect(refusal(new TextEncoder().encode('%PDF-1.7 not a font at all'))).toMatch(/is not a font/);
    expect(refusal(withSignature(SERIF, 'ttcf'))).toMatch(/TrueType collection.*§15\.2\.13/);
    expect(refusal(withSignature(SERIF, 'wOFF'))).toMatch(/WOFF web font/);
    expect(refusal(withSignature(SERIF, 'wOF2'))).toMatch(/WOFF web font/);
    expect(refusal(withTableRenamed(SERIF, 'gasp', 'fvar'))).toMatch(/variable font/);
    expect(refusal(withTableRenamed(SERIF, 'OS/2', 'OS/3'))).toMatch(/has no "OS\/2" table/);
    expect(refusal(withTableRenamed(SERIF, 'glyf', 'gly_'))).toMatch(/no glyph outlines/);
    // A CFF font ("OTTO", a CFF table instead of glyf and loca) is read, and says so.
    const cff = withTableRenamed(withSignature(SERIF, 'OTTO'), 'glyf', 'CFF ');
    expect(readFontFile(cff).outlines).toBe('cff');
  });

  it('refuses a file cut short or whose directory points outside it, before reading a table', () => {
    expect(refusal(SERIF.subarray(0, 11))).toMatch(/cut short: its table directory is missing/);
    expect(refusal(SERIF.subarray(0, 40))).toMatch(/directory runs past the end/);
    const name = tables(SERIF).get('name');
    expect(refusal(SERIF.subarray(0, (name?.offset ?? 0) + 4))).toMatch(
      /cut short or damaged: its "\S+" table lies outside the file/,
    );
    expect(refusal(withTableLength(SERIF, 'head', 0xfffffff0))).toMatch(/"head" table lies outside/);
    expect(refusal(withTableLength(SERIF, 'head', 20))).toMatch(/"head" table too short/);
    expect(refusal(withTableLength(SERIF, 'name', 5))).toMatch(/"name" table too short/);
    const many = SERIF.slice();
    new DataView(many.buffer).setUint16(4, 5000);
    expect(refusal(many)).toMatch(/lists 5000 tables/);
  });
});

describe('embedding permissions (OS/2 fsType)', () => {
  it('allows installable, editable and preview & print fonts, and refuses restricted and bitmap-only ones', () => {
    expect(embeddingRefusal(0x0000)).toBeNull();
    expect(embeddingRefusal(0x0008)).toBeNull();
    expect(embeddingRefusal(0x0004)).toBeNull();
    expect(embeddingRefusal(0x0100)).toBeNull(); // no subsetting: the whole font is embedded anyway
    expect(embeddingRefusal(0x0006)).toBeNull(); // several levels: the least restrictive counts
    expect(embeddingRefusal(0x0002)).toMatch(/licence forbids embedding.*0x0002.*Restricted License/);
    expect(embeddingRefusal(0x0202)).toMatch(/Restricted License/);
    expect(embeddingRefusal(0x0208)).toMatch(/bitmaps only.*0x0208/);
    expect(isPreviewAndPrintOnly(0x0004)).toBe(true);
    expect(isPreviewAndPrintOnly(0x000c)).toBe(false);
    expect(readFontFile(withFsType(SERIF, 0x0002)).fsType).toBe(2);
  });
});

describe('eotFontData', () => {
  it('wraps the font unchanged in an Embedded OpenType 0x00020002 structure with its header fields', () => {
    const part = eotFontData(SERIF_BOLD_ITALIC, readFontFile(SERIF_BOLD_ITALIC));
    const eot = readEot(part);
    expect(eot).toMatchObject({
      eotSize: part.byteLength,
      fontDataSize: SERIF_BOLD_ITALIC.byteLength,
      version: 0x00020002,
      flags: 0,
      charset: 1,
      italic: 1,
      weight: 700,
      fsType: 0,
      magic: 0x504c,
      familyName: 'Liberation Serif',
      styleName: 'Bold Italic',
      fullName: 'Liberation Serif Bold Italic',
      rootStringCheckSum: 0x50475342,
    });
    expect(eot.versionName).toMatch(/^Version /);
    expect(eot.panose).toEqual([...readFontFile(SERIF_BOLD_ITALIC).panose]);
    // The header ends where the font starts, and the font is the uploaded file byte for byte.
    expect(eot.fontDataOffset + eot.fontDataSize).toBe(part.byteLength);
    expect(Buffer.from(eot.fontData).equals(Buffer.from(SERIF_BOLD_ITALIC))).toBe(true);
  });
});
