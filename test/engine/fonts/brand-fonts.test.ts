/**
 * Fonts that travel (docs/payload.md "Brand"; docs/powerpoint-rules.md "Embedded fonts"): uploaded font files
 * named in `presentation.fonts` are grouped into families by the name inside them and embedded as PowerPoint
 * embeds fonts — `p:embeddedFontLst` with one `p:embeddedFont` per family, a `.fntdata` part per face holding an
 * Embedded OpenType structure, the `application/x-fontdata` content type and the font relationship — and a font
 * that is not a font, too large, or licensed against embedding is refused naming the field and the reason.
 * The fonts come from Debian's packages (test/support/decks/test-fonts.ts); every deck goes through the checks.
 */
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { generate, type GenerateResult } from '../../../src/engine/index.js';
import { engineErrorOf } from '../../support/checks/engine-error.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { png } from '../../support/decks/test-images.js';
import { systemFont, withFsType, withSignature } from '../../support/decks/test-fonts.js';
import { readEot } from '../../support/readers/eot-reading.js';
import { renderToPdf } from '../../support/readers/render.js';
import { SAMPLE } from '../../support/decks/deck.js';

/** The warnings of a run but for the sample's own {{tags}}, which these payloads leave unfilled on purpose. */
function brandWarnings(result: GenerateResult): GenerateResult['warnings'] {
  return result.warnings.filter((warning) => warning.code !== 'TAG_UNFILLED');
}

const FONT_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/font';
const SERIF = {
  regular: systemFont('LiberationSerif-Regular.ttf'),
  bold: systemFont('LiberationSerif-Bold.ttf'),
  italic: systemFont('LiberationSerif-Italic.ttf'),
  boldItalic: systemFont('LiberationSerif-BoldItalic.ttf'),
};
const CARLITO = systemFont('Carlito-Regular.ttf');

function run(
  template: Uint8Array,
  presentation: Record<string, unknown>,
  uploads: Record<string, Uint8Array>,
): GenerateResult {
  return generate({
    files: new Map([['template.pptx', template], ...Object.entries(uploads)]),
    payload: {
      presentation: {
        template: 'template.pptx',
        slides: [{ slide_index: 0 }, { slide_index: 1 }],
        ...presentation,
      },
    },
  });
}

interface EmbeddedEntry {
  font: string;
  faces: { slot: string; part: string }[];
}

/** `p:embeddedFontLst` as written: each entry's `p:font` element and its faces' parts. */
function embeddedFontList(bytes: Uint8Array): EmbeddedEntry[] {
  const files = unzipSync(bytes);
  const presentation = strFromU8(files['ppt/presentation.xml']!);
  const rels = strFromU8(files['ppt/_rels/presentation.xml.rels']!);
  const list = /<p:embeddedFontLst>(.*?)<\/p:embeddedFontLst>/.exec(presentation)?.[1] ?? '';
  return [...list.matchAll(/<p:embeddedFont>(.*?)<\/p:embeddedFont>/g)].map(([, entry]) => ({
    font: /<p:font [^>]*\/>/.exec(entry!)?.[0] ?? '',
    faces: [...entry!.matchAll(/<p:(regular|bold|italic|boldItalic) r:id="([^"]+)"\/>/g)].map(
      ([, slot, id]) => {
        const rel = new RegExp(`<Relationship [^>]*Id="${id}"[^>]*/>`).exec(rels)?.[0] ?? '';
        expect(rel, `relationship ${id}`).toContain(`Type="${FONT_REL}"`);
        return { slot: slot!, part: `ppt/${/Target="([^"]+)"/.exec(rel)?.[1]}` };
      },
    ),
  }));
}

describe('embedding uploaded fonts', () => {
  it('groups the faces into one family by the name inside the files and embeds each as PowerPoint does', async () => {
    // Uploaded under names that say nothing, in no order: the fonts themselves say family and style.
    const uploads = {
      'b.ttf': SERIF.bold,
      'x.ttf': SERIF.boldItalic,
      'a.ttf': SERIF.regular,
      'i.ttf': SERIF.italic,
      'c.otf': CARLITO,
    };
    const result = run(
      SAMPLE,
      {
        fonts: ['b.ttf', { file: 'x.ttf' }, 'a.ttf', { file: 'i.ttf' }, 'c.otf'],
        theme: { fonts: { major: 'liberation serif', minor: 'Carlito' } },
      },
      uploads,
    );
    expect(brandWarnings(result)).toEqual([]);
    await expectValidPptx(result.bytes, SAMPLE);
    const files = unzipSync(result.bytes);
    const presentation = strFromU8(files['ppt/presentation.xml']!);
    // Embedding stays on for the next save, and in full (the template said saveSubsetFonts="1").
    expect(presentation).toMatch(/<p:presentation [^>]*embedTrueTypeFonts="1"/);
    expect(presentation).not.toContain('saveSubsetFonts');
    // The list sits where CT_Presentation puts it: after notesSz, before defaultTextStyle.
    expect(presentation).toMatch(
      /<p:notesSz [^>]*\/><p:embeddedFontLst>.*<\/p:embeddedFontLst><p:defaultTextStyle>/,
    );
    const list = embeddedFontList(result.bytes);
    expect(list.map((entry) => entry.font)).toEqual([
      '<p:font typeface="Liberation Serif" panose="02020603050405020304" pitchFamily="18" charset="0"/>',
      '<p:font typeface="Carlito" panose="020F0502020204030204" pitchFamily="34" charset="0"/>',
    ]);
    expect(list[0]?.faces.map((f) => f.slot)).toEqual(['regular', 'bold', 'italic', 'boldItalic']);
    const uploaded = [SERIF.regular, SERIF.bold, SERIF.italic, SERIF.boldItalic];
    list[0]?.faces.forEach((face, i) => {
      expect(face.part).toMatch(/^ppt\/fonts\/font\d+\.fntdata$/);
      const eot = readEot(files[face.part]!);
      expect(eot).toMatchObject({
        version: 0x00020002,
        flags: 0,
        magic: 0x504c,
        familyName: 'Liberation Serif',
      });
      expect(eot.eotSize).toBe(files[face.part]!.byteLength);
      expect(Buffer.from(eot.fontData).equals(Buffer.from(uploaded[i]!)), face.slot).toBe(true);
    });
    expect(strFromU8(files['[Content_Types].xml']!)).toContain(
      '<Default Extension="fntdata" ContentType="application/x-fontdata"/>',
    );
    // theme.fonts named the embedded family: written in the font's own spelling, with what the font says of itself.
    const theme = strFromU8(files['ppt/theme/theme1.xml']!);
    expect(theme).toContain(
      '<a:majorFont><a:latin typeface="Liberation Serif" panose="02020603050405020304" pitchFamily="18" charset="0"/>',
    );
    expect(theme).toContain(
      '<a:minorFont><a:latin typeface="Carlito" panose="020F0502020204030204" pitchFamily="34" charset="0"/>',
    );
  });

  it("replaces the template's own entry of a typeface it embeds again, and its font parts go", async () => {
    const first = run(
      SAMPLE,
      {
        fonts: ['a.ttf', 'b.ttf', 'c.ttf'],
        theme: { fonts: { major: 'Liberation Serif', minor: 'Carlito' } },
      },
      {
        'a.ttf': SERIF.regular,
        'b.ttf': SERIF.bold,
        'c.ttf': CARLITO,
      },
    ).bytes;
    const again = run(first, { fonts: ['new.ttf'] }, { 'new.ttf': SERIF.italic });
    expect(brandWarnings(again)).toEqual([]);
    await expectValidPptx(again.bytes, first);
    const list = embeddedFontList(again.bytes);
    // One entry per typeface: the template's Carlito stays, its Liberation Serif gives way to the payload's.
    expect(
      list.map((entry) => [/typeface="([^"]+)"/.exec(entry.font)?.[1], entry.faces.map((f) => f.slot)]),
    ).toEqual([
      ['Carlito', ['regular']],
      ['Liberation Serif', ['italic']],
    ]);
    const fontParts = Object.keys(unzipSync(again.bytes)).filter((name) => name.startsWith('ppt/fonts/'));
    expect(fontParts.sort()).toEqual([...list.flatMap((e) => e.faces.map((f) => f.part))].sort());
    expect(fontParts).toHaveLength(2);
  });

  it('warns of a family nothing names, and of a font its licence lets PowerPoint open read-only', () => {
    const result = run(
      SAMPLE,
      { fonts: ['serif.ttf', 'print.ttf'] },
      {
        'serif.ttf': SERIF.regular,
        'print.ttf': withFsType(CARLITO, 0x0004),
      },
    );
    expect(brandWarnings(result)).toEqual([
      {
        path: 'presentation.fonts[1]',
        message:
          'font file "print.ttf" (Carlito) allows Preview & Print embedding only (OS/2 fsType 0x0004): PowerPoint opens the deck read-only where the font is not installed',
      },
      {
        path: 'presentation.fonts[0]',
        message:
          'font family "Liberation Serif" is embedded, but neither a theme nor a run of the payload names it, nor a master or layout of the template; PowerPoint expects every embedded font to be used: name it in theme.fonts or in a run\'s font_type (unless the template\'s slides use it already)',
      },
      {
        path: 'presentation.fonts[1]',
        message:
          'font family "Carlito" is embedded, but neither a theme nor a run of the payload names it, nor a master or layout of the template; PowerPoint expects every embedded font to be used: name it in theme.fonts or in a run\'s font_type (unless the template\'s slides use it already)',
      },
    ]);
    // A run's font_type is a use.
    const used = run(
      SAMPLE,
      {
        fonts: ['serif.ttf'],
        slides: [
          {
            slide_index: 1,
            shapes: [
              {
                name: 'Body',
                content: [{ text_run: 'x', text_properties: { font_type: 'Liberation Serif' } }],
              },
            ],
          },
        ],
      },
      { 'serif.ttf': SERIF.regular },
    );
    expect(brandWarnings(used)).toEqual([]);
  });

  it('refuses a font that is not one, too large, licensed against embedding, or a second file of one style, all at once', async () => {
    const huge = new Uint8Array(40 * 1024 * 1024);
    huge.set(SERIF.regular);
    const picture = await png(4, 4);
    const error = engineErrorOf(() =>
      run(
        SAMPLE,
        {
          fonts: [
            'picture.ttf',
            'huge.ttf',
            'restricted.ttf',
            'regular.ttf',
            { file: 'again.ttf' },
            'missing.ttf',
            'set.ttc',
            'regular.ttf',
          ],
          theme: { colors: { accent1: '#000000' } },
        },
        {
          'picture.ttf': picture,
          'huge.ttf': huge,
          'restricted.ttf': withFsType(CARLITO, 0x0002),
          'regular.ttf': SERIF.regular,
          'again.ttf': SERIF.regular.slice(),
          'set.ttc': withSignature(SERIF.bold, 'ttcf'),
        },
      ),
    );
    const problems = error.message;
    expect(problems).toContain(
      'presentation.fonts[0]: font file "picture.ttf" is not a font: a .ttf or .otf file starts with an sfnt version or "OTTO"',
    );
    expect(problems).toContain(
      'presentation.fonts[1]: font file "huge.ttf" is 40.0 MB, over the 25.0 MB limit for one font',
    );
    expect(problems).toContain(
      'presentation.fonts[2]: font file "restricted.ttf" (Carlito) cannot be embedded: its licence forbids embedding (OS/2 fsType 0x0002: Restricted License embedding)',
    );
    expect(problems).toContain(
      'presentation.fonts[4].file: font file "again.ttf" is the regular face of "Liberation Serif", and so is the file of presentation.fonts[3]; a family embeds one file per style',
    );
    expect(problems).toMatch(
      /presentation\.fonts\[5\]: font file "missing\.ttf" is not among the uploaded files \(uploaded: "template\.pptx", /,
    );
    expect(problems).toContain('presentation.fonts[6]: font file "set.ttc" is a TrueType collection (.ttc)');
    expect(problems).toContain(
      'presentation.fonts[7]: font file "regular.ttf" is already embedded by presentation.fonts[3]',
    );
    expect(error.message).toMatch(/^7 problems: /);
  });

  it("draws the theme's new fonts where the renderer has them (LibreOffice reads the theme, not embedded fonts)", async () => {
    const pdf = (bytes: Uint8Array): Promise<string> =>
      renderToPdf(bytes).then((b) => Buffer.from(b).toString('latin1'));
    const fontsIn = (text: string): string[] => [
      ...new Set([...text.matchAll(/\/BaseFont\s*\/[A-Z]{6}\+([\w-]+)/g)].map((m) => m[1]!)),
    ];
    const before = fontsIn(await pdf(run(SAMPLE, {}, {}).bytes));
    const after = fontsIn(
      await pdf(
        run(
          SAMPLE,
          {
            fonts: ['serif.ttf'],
            theme: { fonts: { major: 'Liberation Serif', minor: 'Liberation Serif' } },
          },
          { 'serif.ttf': SERIF.regular },
        ).bytes,
      ),
    );
    expect(before.some((f) => f.startsWith('LiberationSerif'))).toBe(false);
    expect(after.some((f) => f.startsWith('LiberationSerif'))).toBe(true);
    // Nothing the sample writes in its theme's fonts is left in them (Carlito stands in for Calibri).
    expect(after.some((f) => f.startsWith('Carlito'))).toBe(false);
  });
});
